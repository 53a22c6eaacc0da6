import { useNavigate } from '@tanstack/react-router'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardDescription, CardTitle } from '@/components/ui/card'
import { useToast } from '@/components/ui/toast'
import { useConfirmTotpMutation, useEnrollTotpMutation } from '@/features/settings/api/settings-mutations'
import { useSignOutMutation } from '../api/auth-mutations'
import { TotpCodeField, totpCodeError, useTotpCodeForm } from './totp-code-field'

/**
 * The first sign-in of an administrator without an authenticator app: every administrator works with a second
 * factor (public.is_admin() is true only at aal2), so before anything else they set one up. The QR code and the key
 * (to type by hand) come from GoTrue's enrollment; the first code from the app verifies the factor and steps this
 * session up to aal2, and the dashboard opens. Cancel signs out.
 */
export function AuthEnrollmentStep() {
  const enroll = useEnrollTotpMutation()
  const confirm = useConfirmTotpMutation()
  const signOut = useSignOutMutation()
  const navigate = useNavigate()
  const { toast } = useToast()
  const { form, onSubmit } = useTotpCodeForm((code) =>
    confirm.mutate(
      { factorId: enroll.data!.id, code },
      {
        onSuccess: () => {
          toast({ title: 'Two-factor authentication enabled', description: 'Sign-in now asks for a code.' })
          void navigate({ to: '/' })
        },
      },
    ),
  )
  const errorMessage = totpCodeError(form, confirm.error)

  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-8">
      <Card className="w-full max-w-lg">
        <CardTitle>Set up two-factor authentication</CardTitle>
        <CardDescription>
          Administrators sign in with their password and a 6-digit code from an authenticator app (Google Authenticator,
          1Password, Authy, ...). Set one up now to continue.
        </CardDescription>
        <div className="mt-6">
          {!enroll.data ? (
            <div className="space-y-3">
              {enroll.error && <Alert>Could not start the set-up: {enroll.error.message}</Alert>}
              <Button className="w-full" onClick={() => enroll.mutate()} disabled={enroll.isPending}>
                {enroll.isPending ? 'Starting...' : 'Set up authenticator app'}
              </Button>
            </div>
          ) : (
            <form className="grid gap-4 sm:grid-cols-[auto_1fr]" onSubmit={onSubmit} noValidate>
              <img
                src={enroll.data.totp.qr_code}
                alt="QR code to scan with your authenticator app"
                width={180}
                height={180}
                className="mx-auto rounded border border-slate-200 bg-white"
              />
              <div className="space-y-3">
                <p className="text-sm text-slate-700">
                  Scan the QR code with your authenticator app, or enter this key by hand:
                </p>
                <code
                  data-testid="totp-secret"
                  className="block break-all rounded bg-slate-100 px-2 py-1 font-mono text-sm"
                >
                  {enroll.data.totp.secret}
                </code>
                {errorMessage && <Alert>{errorMessage}</Alert>}
                <TotpCodeField form={form} id="enroll-code" label="Code from the app" className="max-w-40" />
                <Button type="submit" disabled={confirm.isPending}>
                  {confirm.isPending ? 'Verifying...' : 'Verify and continue'}
                </Button>
              </div>
            </form>
          )}
          <Button
            type="button"
            variant="ghost"
            className="mt-4 w-full"
            onClick={() => signOut.mutate()}
            disabled={signOut.isPending}
          >
            Cancel and sign out
          </Button>
        </div>
      </Card>
    </main>
  )
}
