import { zodResolver } from '@hookform/resolvers/zod'
import { useForm, type UseFormReturn } from 'react-hook-form'

import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { cn } from '@/lib/utils'
import type { TotpCode, TotpCodeInput } from '../api/auth-schemas'
import { TotpCodeSchema } from '../api/auth-schemas'

export type TotpCodeForm = UseFormReturn<TotpCodeInput, unknown, TotpCode>

/**
 * The form state of a 6-digit authenticator code (react-hook-form with TotpCodeSchema), and its submit handler:
 * `onCode` gets the code without spaces, only once it is six digits; otherwise the field's message says what to enter.
 * Used by the sign-in code step, the first-sign-in enrollment and Settings.
 */
export function useTotpCodeForm(onCode: (code: string) => void): {
  form: TotpCodeForm
  onSubmit: (event?: React.BaseSyntheticEvent) => Promise<void>
} {
  const form = useForm<TotpCodeInput, unknown, TotpCode>({
    resolver: zodResolver(TotpCodeSchema),
    defaultValues: { code: '' },
  })
  return { form, onSubmit: form.handleSubmit(({ code }) => onCode(code)) }
}

/**
 * What the code form's alert says: the field's own message first, else GoTrue's answer to the code, in words an admin
 * can act on ("Invalid TOTP code entered" is GoTrue's wording for a wrong or expired code). Null when all is well.
 */
export function totpCodeError(form: TotpCodeForm, verifyError: Error | null): string | null {
  const fieldError = form.formState.errors.code?.message
  if (fieldError) return fieldError
  if (!verifyError) return null
  return verifyError.message === 'Invalid TOTP code entered'
    ? 'That code is not valid. Check your authenticator app and try again.'
    : verifyError.message
}

/** The labelled code input bound to `form` (numeric keypad, one-time-code autofill, six characters). */
export function TotpCodeField({
  form,
  id,
  label,
  autoFocus,
  className,
}: {
  form: TotpCodeForm
  id: string
  label: string
  autoFocus?: boolean
  className?: string
}) {
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={7}
        required
        autoFocus={autoFocus}
        aria-invalid={form.formState.errors.code ? true : undefined}
        className={cn(className)}
        {...form.register('code')}
      />
    </div>
  )
}
