import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'

import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Skeleton } from '@/components/ui/skeleton'
import { useToast } from '@/components/ui/toast'
import { useConfirmTotpMutation, useEnrollTotpMutation, useUnenrollMutation } from '../api/settings-mutations'
import { settingsQueries } from '../api/settings-queries'
import { TotpCodeField, totpCodeError, useTotpCodeForm } from '@/features/auth/components/totp-code-field'

/** /admin/settings: account security. Two-factor authentication with an authenticator app (TOTP). */
export function SettingsPage() {
  return (
    <section className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Settings</h1>
        <p className="mt-1 text-slate-600">Security of your admin account.</p>
      </div>
      <TwoFactorCard />
    </section>
  )
}

function TwoFactorCard() {
  const factors = useQuery(settingsQueries.factors())
  const verifiedFactors = factors.data?.filter((factor) => factor.status === 'verified') ?? []
  const verified = verifiedFactors[0]

  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">Two-factor authentication</h2>
        {factors.isSuccess && <Badge>{verified ? 'Enabled' : 'Off'}</Badge>}
      </div>
      <p className="mt-1 text-sm text-slate-600">
        After your password, sign-in asks for a 6-digit code from an authenticator app (Google Authenticator, 1Password,
        Authy, ...).
      </p>
      <div className="mt-4">
        {factors.isPending && (
          <div role="status">
            <span className="sr-only">Loading two-factor settings</span>
            <Skeleton className="h-10 w-56" />
          </div>
        )}
        {factors.isError && <Alert>Could not load your two-factor settings: {factors.error.message}</Alert>}
        {factors.isSuccess &&
          (verified ? (
            <div className="space-y-6">
              <EnabledFactor factorId={verified.id} removable={verifiedFactors.length > 1} />
              <Enrollment startLabel="Add another authenticator app" />
            </div>
          ) : (
            <Enrollment />
          ))}
      </div>
    </div>
  )
}

/**
 * The enabled factor. Administrators always work at aal2, so the last authenticator app cannot be removed here:
 * without it the next sign-in would have to enroll one again, and whoever held the password could enroll theirs.
 */
function EnabledFactor({ factorId, removable }: { factorId: string; removable: boolean }) {
  const unenroll = useUnenrollMutation()
  const { toast } = useToast()
  const [confirming, setConfirming] = useState(false)
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-700">Your account is protected by an authenticator app.</p>
      {unenroll.error && <Alert>{unenroll.error.message}</Alert>}
      {removable ? (
        <Button variant="outline" onClick={() => setConfirming(true)} disabled={unenroll.isPending}>
          Remove authenticator app
        </Button>
      ) : (
        <p className="text-sm text-slate-600">
          Administrators must keep an authenticator app. To move to a new phone, add the new app first, then remove this
          one.
        </p>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Remove the authenticator app?"
        description="Sign-in will ask for a code from your other authenticator app."
        confirmLabel="Remove"
        destructive
        pending={unenroll.isPending}
        onConfirm={() =>
          unenroll.mutate(factorId, {
            onSuccess: () => {
              setConfirming(false)
              toast({ title: 'Two-factor authentication removed' })
            },
          })
        }
      />
    </div>
  )
}

function Enrollment({ startLabel = 'Set up authenticator app' }: { startLabel?: string }) {
  const enroll = useEnrollTotpMutation()
  const confirm = useConfirmTotpMutation()
  const { toast } = useToast()
  const { form, onSubmit } = useTotpCodeForm((code) =>
    confirm.mutate(
      { factorId: enroll.data!.id, code },
      {
        onSuccess: () =>
          toast({ title: 'Two-factor authentication enabled', description: 'Sign-in now asks for a code.' }),
      },
    ),
  )

  if (!enroll.data) {
    return (
      <div className="space-y-3">
        {enroll.error && <Alert>Could not start the set-up: {enroll.error.message}</Alert>}
        <Button onClick={() => enroll.mutate()} disabled={enroll.isPending}>
          {enroll.isPending ? 'Starting...' : startLabel}
        </Button>
      </div>
    )
  }

  const errorMessage = totpCodeError(form, confirm.error)
  return (
    <form className="grid gap-4 md:grid-cols-[auto_1fr]" onSubmit={onSubmit} noValidate>
      <img
        src={enroll.data.totp.qr_code}
        alt="QR code to scan with your authenticator app"
        width={180}
        height={180}
        className="rounded border border-slate-200 bg-white"
      />
      <div className="space-y-3">
        <p className="text-sm text-slate-700">
          Scan the QR code with your authenticator app, or enter this key by hand:
        </p>
        <code data-testid="totp-secret" className="block break-all rounded bg-slate-100 px-2 py-1 font-mono text-sm">
          {enroll.data.totp.secret}
        </code>
        {errorMessage && <Alert>{errorMessage}</Alert>}
        <TotpCodeField form={form} id="enroll-code" label="Code from the app" className="max-w-40" />
        <Button type="submit" disabled={confirm.isPending}>
          {confirm.isPending ? 'Verifying...' : 'Verify and enable'}
        </Button>
      </div>
    </form>
  )
}
