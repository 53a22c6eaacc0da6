import * as Dialog from '@radix-ui/react-dialog'
import type { Session } from '@supabase/supabase-js'
import { Heart, X } from 'lucide-react'
import { useEffect, useId, useState, type ReactNode, type SubmitEvent } from 'react'

import { reportFileName, type AccountRequest, type EmailStatus, type ReportDelivery } from '@shared/account.ts'
import { NewPasswordSchema, PASSWORD_MIN_LENGTH, PASSWORD_RULE_TEXT } from '@shared/password-policy.ts'
import { slugify } from '@shared/slug.ts'
import { agentUrl, compareUrl } from '@shared/urls.ts'
import { compareSnapshot, setSavedAgents, signInUrl } from '~/lib/agent-lists'
import { anonHeaders, browserConfig } from '~/lib/browser-config'
import { formatDate } from '~/lib/format'
import { supabase } from '~/lib/supabase'
import { useCompareList } from './agent-list-buttons'
import { FormError, SubmitButton, TextField, useAuthRequest } from './form-parts'
import { LoadError, useLiveLoad } from './use-live-load'
import { useToast } from './use-toast'

type Auth = { kind: 'loading' } | { kind: 'signed-out' } | { kind: 'signed-in'; session: Session }

/**
 * POSTs one action to the account function as the signed-in visitor.
 * @throws Error with the function's message (or the status) when it refuses.
 */
async function accountAction(token: string, body: AccountRequest): Promise<Response> {
  const response = await fetch(`${browserConfig().apiUrl}/functions/v1/account`, {
    method: 'POST',
    headers: { ...anonHeaders(), Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (!response.ok) {
    const answer = (await response.json().catch(() => null)) as { error?: string } | null
    throw new Error(answer?.error ?? `The request failed (error ${response.status}).`)
  }
  return response
}

/** Hands `blob` to the browser as a download named `filename`. */
function download(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = filename
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/** The session's current access token (supabase-js refreshes it when it has expired). */
async function accessToken(): Promise<string> {
  const { data, error } = await supabase.auth.getSession()
  if (error || !data.session) throw new Error('Your session has ended. Please sign in again.')
  return data.session.access_token
}

const sectionClass = 'rounded-card border border-slate-200 bg-white p-5 shadow-sm sm:p-6'
const secondaryButton =
  'rounded-control border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-700 disabled:cursor-wait disabled:opacity-60'

/**
 * /account: the signed-in visitor's saved agents, compare tray, report requests (with the PDF to download again),
 * name, email and password, email preferences, sign out everywhere, the export of their data and the deletion of the
 * account. Signed-out visitors are asked to sign in and come back.
 */
export function AccountPage() {
  const [auth, setAuth] = useState<Auth>({ kind: 'loading' })
  const { toast, show } = useToast()

  useEffect(() => {
    let cancelled = false
    void supabase.auth.getSession().then(({ data }) => {
      if (!cancelled) setAuth(data.session ? { kind: 'signed-in', session: data.session } : { kind: 'signed-out' })
    })
    const { data } = supabase.auth.onAuthStateChange((_event, session) => {
      if (!cancelled) setAuth(session ? { kind: 'signed-in', session } : { kind: 'signed-out' })
    })
    return () => {
      cancelled = true
      data.subscription.unsubscribe()
    }
  }, [])

  if (auth.kind === 'loading')
    return (
      <p role="status" className="py-12 text-center text-slate-700">
        Loading your account…
      </p>
    )
  if (auth.kind === 'signed-out' && new URLSearchParams(window.location.search).has('deleted'))
    return (
      <section role="status" className={`mx-auto max-w-md text-center ${sectionClass}`}>
        <h1 className="text-2xl font-bold tracking-tight">Your account was deleted</h1>
        <p className="mt-3 text-slate-700">
          Your account and everything tied to it are gone. Reports you asked for stay in our counts without your name,
          email, phone or address.
        </p>
        <a href="/" className="mt-6 inline-block text-brand-700 underline">
          Back to AgentInsight
        </a>
      </section>
    )
  if (auth.kind === 'signed-out')
    return (
      <section className={`mx-auto max-w-md text-center ${sectionClass}`}>
        <h1 className="text-2xl font-bold tracking-tight">Your account</h1>
        <p className="mt-3 text-slate-700">
          Sign in to see your saved agents and your reports, and to manage your email and data.
        </p>
        <a
          href={signInUrl()}
          className="mt-6 inline-block rounded-control bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
        >
          Sign in
        </a>
      </section>
    )

  const { user } = auth.session
  const name = typeof user.user_metadata?.full_name === 'string' ? user.user_metadata.full_name : ''
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-3xl font-bold tracking-tight">Your account</h1>
        <p className="mt-1 break-words text-slate-700">
          Signed in as <strong>{user.email}</strong>
          {user.email_confirmed_at ? '' : ' (email not confirmed yet)'}
        </p>
        <p className="mt-1 text-slate-700">
          Are you a real-estate agent?{' '}
          <a href="/account/agent" className="font-medium text-blue-700 underline">
            Your agent profile
          </a>
        </p>
      </header>
      <div className="grid gap-6 lg:grid-cols-2">
        <SavedAgents userId={user.id} onMessage={show} />
        <CompareList />
      </div>
      <MyReports confirmed={Boolean(user.email_confirmed_at)} onMessage={show} />
      <div className="grid gap-6 lg:grid-cols-2">
        <ProfileForm initialName={name} onSaved={() => show('Your name was saved.')} />
        <EmailForm currentEmail={user.email ?? ''} />
        <PasswordForm onSaved={() => show('Your password was changed.')} />
        <EmailPreferences email={user.email ?? ''} onMessage={show} />
      </div>
      <YourData onMessage={show} />
      {toast}
    </div>
  )
}

function Section({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <section aria-labelledby={id} className={sectionClass}>
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  )
}

interface SavedRow {
  agent_id: string
  created_at: string
  agents: { name: string; brokerage: string | null; city: string | null; state: string | null } | null
}

function SavedAgents({ userId, onMessage }: { userId: string; onMessage: (text: string, tone?: 'error') => void }) {
  const id = useId()
  const [removed, setRemoved] = useState<Set<string>>(new Set())
  const { state, retry } = useLiveLoad(
    userId,
    async () => {
      const { data, error } = await supabase
        .from('saved_agents')
        .select('agent_id, created_at, agents(name, brokerage, city, state)')
        .eq('user_id', userId)
        .order('created_at', { ascending: false })
      if (error) throw error
      return data as SavedRow[]
    },
    'Loading saved agents failed',
  )

  async function remove(agentId: string, agentName: string) {
    const { error } = await supabase.from('saved_agents').delete().eq('user_id', userId).eq('agent_id', agentId)
    if (error) {
      console.error('Removing a saved agent failed', error)
      onMessage('Could not remove the agent. Please try again.', 'error')
      return
    }
    const next = new Set(removed).add(agentId)
    setRemoved(next)
    if (state.kind === 'loaded')
      setSavedAgents(state.value.map((row) => row.agent_id).filter((saved) => !next.has(saved)))
    onMessage(`${agentName} was removed from your saved agents.`)
  }

  return (
    <Section title="Saved agents" id={`${id}-saved`}>
      {state.kind === 'loading' && (
        <p role="status" className="mt-3 text-slate-700">
          Loading…
        </p>
      )}
      {state.kind === 'error' && (
        <LoadError message="Failed to load your saved agents." onRetry={retry} className="mt-3" />
      )}
      {state.kind === 'loaded' &&
        (state.value.filter((row) => !removed.has(row.agent_id)).length === 0 ? (
          <p className="mt-3 text-slate-700">
            No saved agents yet. Tap the <Heart aria-label="heart" className="inline h-4 w-4 align-[-2px]" /> on an
            agent&apos;s card or profile to keep them here.
          </p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-100" aria-label="Saved agents">
            {state.value
              .filter((row) => !removed.has(row.agent_id))
              .map((row) => {
                const agentName = row.agents?.name ?? 'Agent no longer listed'
                const place = [row.agents?.city, row.agents?.state].filter(Boolean).join(', ')
                return (
                  <li key={row.agent_id} className="flex items-center justify-between gap-3 py-2.5">
                    <div className="min-w-0">
                      <a href={agentUrl(row.agent_id)} className="font-medium break-words text-brand-700 underline">
                        {agentName}
                      </a>
                      <p className="text-sm text-slate-600">
                        {[row.agents?.brokerage, place].filter(Boolean).join(' · ') || '—'}
                      </p>
                    </div>
                    <button
                      type="button"
                      onClick={() => void remove(row.agent_id, agentName)}
                      aria-label={`Remove ${agentName} from saved agents`}
                      className="inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-control border border-slate-300 text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-700"
                    >
                      <X aria-hidden="true" className="h-4 w-4" />
                    </button>
                  </li>
                )
              })}
          </ul>
        ))}
    </Section>
  )
}

function CompareList() {
  const id = useId()
  const entries = useCompareList()
  return (
    <Section title="Compare list" id={`${id}-compare`}>
      {entries.length === 0 ? (
        <p className="mt-3 text-slate-700">
          Nothing to compare yet. Tick &quot;Compare&quot; on search results, agent profiles or ZIP and city pages (up
          to four agents); the list follows you to any browser you sign in on.
        </p>
      ) : (
        <>
          <ul className="mt-3 list-disc space-y-1 pl-5 text-slate-800">
            {entries.map((entry) => (
              <li key={entry.id}>
                <a href={agentUrl(entry.id)} className="text-brand-700 underline">
                  {entry.name}
                </a>
              </li>
            ))}
          </ul>
          {entries.length >= 2 ? (
            <a
              href={compareUrl(compareSnapshot().map((entry) => entry.id))}
              className="mt-4 inline-block rounded-control bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
            >
              Compare {entries.length} agents
            </a>
          ) : (
            <p className="mt-3 text-sm text-slate-600">Pick one more agent to compare them side by side.</p>
          )}
        </>
      )}
    </Section>
  )
}

interface ReportRow {
  id: string
  created_at: string
  agent_id: string | null
  agent_name: string | null
  agent_location: string | null
  report_sent_at: string | null
  delivery: ReportDelivery
}

/** What a report request's state means for the visitor. */
export function deliveryText(row: Pick<ReportRow, 'delivery' | 'report_sent_at'>): string {
  switch (row.delivery) {
    case 'sent':
      return `Emailed ${formatDate(row.report_sent_at!.slice(0, 10))}`
    case 'awaiting_confirmation':
      return 'Waiting for you to confirm: open the link we emailed you'
    case 'not_sent':
      return 'Not emailed'
    default:
      return 'Being prepared'
  }
}

function MyReports({
  confirmed,
  onMessage,
}: {
  confirmed: boolean
  onMessage: (text: string, tone?: 'error') => void
}) {
  const id = useId()
  const [downloading, setDownloading] = useState<string | null>(null)
  const { state, retry } = useLiveLoad(
    'reports',
    async () => {
      const { data, error } = await supabase.rpc('my_report_requests')
      if (error) throw error
      return data as ReportRow[]
    },
    'Loading report requests failed',
  )

  async function downloadPdf(row: ReportRow) {
    setDownloading(row.id)
    try {
      const response = await accountAction(await accessToken(), { action: 'report-pdf', request_id: row.id })
      download(await response.blob(), reportFileName(slugify(row.agent_name ?? 'agent')))
    } catch (error) {
      console.error('Report download failed', error)
      onMessage(error instanceof Error ? error.message : 'Could not download the report.', 'error')
    } finally {
      setDownloading(null)
    }
  }

  return (
    <Section title="My reports" id={`${id}-reports`}>
      <p className="mt-1 text-sm text-slate-600">
        Agent reports you asked for with this email address. Download one again at any time, with today&apos;s figures.
      </p>
      {!confirmed && (
        <p className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950">
          Confirm your email address (the link is in the mail we sent when you signed up) to see your reports here.
        </p>
      )}
      {state.kind === 'loading' && (
        <p role="status" className="mt-3 text-slate-700">
          Loading…
        </p>
      )}
      {state.kind === 'error' && <LoadError message="Failed to load your reports." onRetry={retry} className="mt-3" />}
      {state.kind === 'loaded' &&
        (state.value.length === 0 ? (
          <p className="mt-3 text-slate-700">
            No reports yet. Ask for one with <strong>Get Report</strong> on any agent&apos;s page.
          </p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-100" aria-label="Report requests">
            {state.value.map((row) => {
              const agentName = row.agent_name ?? 'Agent report'
              return (
                <li key={row.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
                  <div className="min-w-0">
                    <p className="font-medium break-words">
                      {row.agent_id ? (
                        <a href={agentUrl(row.agent_id)} className="text-brand-700 underline">
                          {agentName}
                        </a>
                      ) : (
                        agentName
                      )}
                      {row.agent_location && (
                        <span className="font-normal text-slate-600"> · {row.agent_location}</span>
                      )}
                    </p>
                    <p className="text-sm text-slate-600">
                      Requested {formatDate(row.created_at.slice(0, 10))} · {deliveryText(row)}
                    </p>
                  </div>
                  {row.agent_id && (
                    <button
                      type="button"
                      onClick={() => void downloadPdf(row)}
                      disabled={downloading === row.id}
                      aria-busy={downloading === row.id}
                      aria-label={`Download the PDF report on ${agentName}`}
                      className={secondaryButton}
                    >
                      {downloading === row.id ? 'Preparing…' : 'Download PDF'}
                    </button>
                  )}
                </li>
              )
            })}
          </ul>
        ))}
    </Section>
  )
}

function ProfileForm({ initialName, onSaved }: { initialName: string; onSaved: () => void }) {
  const id = useId()
  const [name, setName] = useState(initialName)
  const { busy, error, setError, submit } = useAuthRequest('Saving the name failed')
  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault()
    const trimmed = name.trim()
    if (!trimmed || trimmed.length > 100) {
      setError(trimmed ? 'Full name must be 100 characters or fewer' : 'Please enter your full name')
      return
    }
    await submit(
      () => supabase.auth.updateUser({ data: { full_name: trimmed } }),
      () => onSaved(),
    )
  }
  return (
    <Section title="Name" id={`${id}-name`}>
      <form onSubmit={onSubmit} noValidate className="mt-3" aria-busy={busy}>
        <fieldset disabled={busy} className="space-y-3">
          <TextField
            id={`${id}-full-name`}
            label="Full name"
            autoComplete="name"
            value={name}
            onValueChange={setName}
            hint="Shown in the site's header and filled in when you ask for a report."
          />
          <FormError message={error} />
          <SubmitButton busy={busy} label="Save name" busyLabel="Saving…" />
        </fieldset>
      </form>
    </Section>
  )
}

function EmailForm({ currentEmail }: { currentEmail: string }) {
  const id = useId()
  const [email, setEmail] = useState('')
  const [sentTo, setSentTo] = useState<string | null>(null)
  const { busy, error, setError, submit } = useAuthRequest('Changing the email failed')
  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault()
    const next = email.trim()
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(next)) {
      setError('Please enter a valid email address')
      return
    }
    if (next.toLowerCase() === currentEmail.toLowerCase()) {
      setError('That is already your email address')
      return
    }
    await submit(
      () => supabase.auth.updateUser({ email: next }, { emailRedirectTo: `${window.location.origin}/account` }),
      () => setSentTo(next),
    )
  }
  return (
    <Section title="Email address" id={`${id}-email`}>
      {sentTo ? (
        <p role="status" className="mt-3 text-slate-800">
          Check your inbox: we emailed a confirmation link. Your address changes to <strong>{sentTo}</strong> once the
          link is opened; until then you sign in with {currentEmail}.
        </p>
      ) : (
        <form onSubmit={onSubmit} noValidate className="mt-3" aria-busy={busy}>
          <fieldset disabled={busy} className="space-y-3">
            <TextField
              id={`${id}-new-email`}
              label="New email address"
              type="email"
              autoComplete="email"
              value={email}
              onValueChange={setEmail}
              hint="The change takes effect after you open the confirmation link we email you."
            />
            <FormError message={error} />
            <SubmitButton busy={busy} label="Change email" busyLabel="Sending…" />
          </fieldset>
        </form>
      )}
    </Section>
  )
}

function PasswordForm({ onSaved }: { onSaved: () => void }) {
  const id = useId()
  const [password, setPassword] = useState('')
  const [repeat, setRepeat] = useState('')
  const { busy, error, setError, submit } = useAuthRequest('Changing the password failed')
  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault()
    const parsed = NewPasswordSchema.safeParse(password)
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Please choose another password')
      return
    }
    if (password !== repeat) {
      setError('The two passwords are not the same')
      return
    }
    await submit(
      () => supabase.auth.updateUser({ password: parsed.data }),
      () => {
        setPassword('')
        setRepeat('')
        onSaved()
      },
    )
  }
  return (
    <Section title="Password" id={`${id}-password`}>
      <form onSubmit={onSubmit} noValidate className="mt-3" aria-busy={busy}>
        <fieldset disabled={busy} className="space-y-3">
          <TextField
            id={`${id}-new-password`}
            label="New password"
            type="password"
            autoComplete="new-password"
            minLength={PASSWORD_MIN_LENGTH}
            value={password}
            onValueChange={setPassword}
            hint={PASSWORD_RULE_TEXT}
          />
          <TextField
            id={`${id}-repeat-password`}
            label="Repeat the new password"
            type="password"
            autoComplete="new-password"
            value={repeat}
            onValueChange={setRepeat}
          />
          <FormError message={error} />
          <SubmitButton busy={busy} label="Change password" busyLabel="Saving…" />
        </fieldset>
      </form>
    </Section>
  )
}

function EmailPreferences({ email, onMessage }: { email: string; onMessage: (text: string, tone?: 'error') => void }) {
  const id = useId()
  const [busy, setBusy] = useState(false)
  const [status, setStatus] = useState<EmailStatus | null>(null)
  const { state, retry } = useLiveLoad(
    email,
    async () => (await (await accountAction(await accessToken(), { action: 'email-status' })).json()) as EmailStatus,
    'Loading the email status failed',
  )
  const current = status ?? (state.kind === 'loaded' ? state.value : null)

  async function resume() {
    setBusy(true)
    try {
      const answer = (await (
        await accountAction(await accessToken(), { action: 'resume-emails' })
      ).json()) as EmailStatus
      setStatus(answer)
      onMessage('Emails to you are back on.')
    } catch (error) {
      console.error('Turning emails back on failed', error)
      onMessage(error instanceof Error ? error.message : 'Could not turn emails back on.', 'error')
    } finally {
      setBusy(false)
    }
  }

  return (
    <Section title="Emails from us" id={`${id}-emails`}>
      {state.kind === 'loading' && !current && (
        <p role="status" className="mt-3 text-slate-700">
          Loading…
        </p>
      )}
      {state.kind === 'error' && !current && (
        <LoadError message="Failed to load your email settings." onRetry={retry} className="mt-3" />
      )}
      {current &&
        (current.unsubscribed_at ? (
          <>
            <p className="mt-3 text-slate-800">
              You unsubscribed on {formatDate(current.unsubscribed_at.slice(0, 10))}: we send nothing to {current.email}
              , not even the reports you ask for.
            </p>
            <button type="button" onClick={() => void resume()} disabled={busy} className={`mt-3 ${secondaryButton}`}>
              {busy ? 'Turning on…' : 'Turn emails back on'}
            </button>
          </>
        ) : (
          <p className="mt-3 text-slate-800">
            Emails to {current.email} are on: the reports you ask for and, if you signed up, the newsletter. Every email
            has an unsubscribe link that stops them all.
          </p>
        ))}
    </Section>
  )
}

function YourData({ onMessage }: { onMessage: (text: string, tone?: 'error') => void }) {
  const id = useId()
  const [exporting, setExporting] = useState(false)
  const [signingOut, setSigningOut] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const [deleteError, setDeleteError] = useState<string | null>(null)

  async function exportData() {
    setExporting(true)
    try {
      const response = await accountAction(await accessToken(), { action: 'export' })
      const data: unknown = await response.json()
      download(
        new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }),
        `agentinsight-data-${new Date().toISOString().slice(0, 10)}.json`,
      )
    } catch (error) {
      console.error('Export failed', error)
      onMessage(error instanceof Error ? error.message : 'Could not export your data.', 'error')
    } finally {
      setExporting(false)
    }
  }

  async function signOutEverywhere() {
    setSigningOut(true)
    const { error } = await supabase.auth.signOut({ scope: 'global' })
    if (error) {
      console.error('Signing out everywhere failed', error)
      await supabase.auth.signOut({ scope: 'local' })
    }
    window.location.assign('/')
  }

  async function deleteAccount() {
    setDeleting(true)
    setDeleteError(null)
    try {
      await accountAction(await accessToken(), { action: 'delete' })
      await supabase.auth.signOut({ scope: 'local' })
      setSavedAgents(null)
      window.location.assign('/account?deleted=1')
    } catch (error) {
      console.error('Deleting the account failed', error)
      setDeleteError(error instanceof Error ? error.message : 'Could not delete your account.')
      setDeleting(false)
    }
  }

  return (
    <Section title="Your data" id={`${id}-data`}>
      <p className="mt-1 text-sm text-slate-600">
        What we hold about you and how long: see the{' '}
        <a href="/privacy" className="text-brand-700 underline">
          privacy policy
        </a>
        .
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        <button type="button" onClick={() => void exportData()} disabled={exporting} className={secondaryButton}>
          {exporting ? 'Preparing…' : 'Export my data'}
        </button>
        <button
          type="button"
          onClick={() => void signOutEverywhere()}
          disabled={signingOut}
          className={secondaryButton}
        >
          {signingOut ? 'Signing out…' : 'Sign out everywhere'}
        </button>
        <Dialog.Root open={confirming} onOpenChange={(open) => !deleting && setConfirming(open)}>
          <Dialog.Trigger className="rounded-control border border-red-300 bg-white px-4 py-2 text-sm font-medium text-red-800 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-red-700">
            Delete my account
          </Dialog.Trigger>
          <Dialog.Portal>
            <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
            <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-xl focus:outline-none">
              <Dialog.Title className="text-xl font-bold tracking-tight">Delete your account?</Dialog.Title>
              <Dialog.Description className="mt-3 text-slate-700">
                Your account, saved agents, compare list and newsletter subscription are deleted. Reports you asked for
                stay in our counts without your name, email, phone or address. This cannot be undone.
              </Dialog.Description>
              {deleteError && (
                <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
                  {deleteError}
                </p>
              )}
              <div className="mt-6 flex justify-end gap-2">
                <Dialog.Close className={secondaryButton} disabled={deleting}>
                  Cancel
                </Dialog.Close>
                <button
                  type="button"
                  onClick={() => void deleteAccount()}
                  disabled={deleting}
                  aria-busy={deleting}
                  className="rounded-control bg-red-700 px-4 py-2 text-sm font-semibold text-white hover:bg-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700 disabled:cursor-wait disabled:opacity-70"
                >
                  {deleting ? 'Deleting…' : 'Delete my account'}
                </button>
              </div>
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
      </div>
    </Section>
  )
}
