import { useEffect, useId, useState, type ReactNode } from 'react'
import type { Session } from '@supabase/supabase-js'

import {
  AGENT_PHOTO_BUCKET,
  AGENT_PHOTO_TYPES,
  AgentProfileEditSchema,
  agentPhotoProblem,
  CorrectionRequestSchema,
  PROFILE_LIMITS,
  splitList,
  VisibilityRequestSchema,
  type CorrectionKind,
} from '@shared/agent-claims.ts'
import {
  CLAIM_STATUS_LABELS,
  CORRECTION_KIND_LABELS,
  CORRECTION_KINDS,
  REQUEST_STATUS_LABELS,
  claimedLine,
} from '@shared/agent-claim-words.ts'
import { agentUrl } from '@shared/urls.ts'
import {
  answerError,
  callAsUser,
  CLAIM_COLUMNS,
  currentSession,
  databaseMessage,
  OWNER_AGENT_COLUMNS,
  signInUrl,
  siteClient,
  type AgentRow,
  type ClaimRow,
  type CorrectionRow,
  type VisibilityRequestRow,
} from '../lib/agent-owner'
import { formatDate, formatUsd } from '../lib/format'
import { FormError, TextField } from './form-parts'

type OwnerAgent = Pick<AgentRow, OwnerAgentField>
type OwnClaim = Pick<
  ClaimRow,
  'id' | 'agent_id' | 'status' | 'code_sent_to' | 'decided_at' | 'decision_reason' | 'created_at'
>
type OwnCorrection = Pick<
  CorrectionRow,
  | 'id'
  | 'kind'
  | 'address'
  | 'listing_number'
  | 'side'
  | 'close_price'
  | 'close_date'
  | 'list_price'
  | 'status'
  | 'decision_reason'
  | 'created_at'
>
type OwnRequest = Pick<
  VisibilityRequestRow,
  'id' | 'hide_phone' | 'hide_email' | 'noindex' | 'status' | 'decision_reason' | 'created_at'
>

type OwnerAgentField =
  | 'id'
  | 'name'
  | 'brokerage'
  | 'city'
  | 'state'
  | 'email'
  | 'phone'
  | 'photo_url'
  | 'bio'
  | 'specialties'
  | 'languages'
  | 'hide_phone'
  | 'hide_email'
  | 'noindex'
  | 'claimed_at'
  | 'profile_updated_at'
  | 'corrections_accepted'
  | 'corrections_pending'
const CORRECTION_COLUMNS =
  'id, kind, address, listing_number, side, close_price, close_date, list_price, status, decision_reason, created_at' as const
const REQUEST_COLUMNS = 'id, hide_phone, hide_email, noindex, status, decision_reason, created_at' as const

type State =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | { kind: 'signed-out' }
  | { kind: 'no-profile'; claims: (OwnClaim & { agentName: string | null })[] }
  | {
      kind: 'owner'
      session: Session
      agent: OwnerAgent
      corrections: OwnCorrection[]
      requests: OwnRequest[]
    }

const buttonClass =
  'rounded-md bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-wait disabled:opacity-70'
const secondaryButtonClass =
  'rounded-md border border-slate-400 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50 disabled:cursor-wait disabled:opacity-70'
const fieldClass =
  'mt-1 block w-full rounded-control border border-slate-400 px-3 py-2 text-base text-slate-900 focus:border-brand-700 focus:outline-2 focus:outline-brand-700'
const CONNECTION_MESSAGE = 'Could not reach the server. Check your connection and try again.'

/** Loads what the signed-in visitor owns: their claims, and for an approved one the agent, corrections and requests. */
async function loadOwner(): Promise<State> {
  const session = await currentSession()
  if (!session) return { kind: 'signed-out' }
  const supabase = await siteClient()
  const claims = await supabase
    .from('agent_claims')
    .select(CLAIM_COLUMNS)
    .eq('user_id', session.user.id)
    .order('created_at', { ascending: false })
    .limit(20)
  if (claims.error) return { kind: 'failed', message: `Could not load your claims: ${claims.error.message}` }
  const approved = claims.data.find((claim) => claim.status === 'approved')
  if (!approved) {
    const ids = [...new Set(claims.data.map((claim) => claim.agent_id))]
    const names = ids.length
      ? await supabase.from('agents').select('id, name').in('id', ids)
      : { data: [], error: null }
    const byId = new Map((names.data ?? []).map((agent) => [agent.id, agent.name]))
    return {
      kind: 'no-profile',
      claims: claims.data.map((claim) => ({ ...claim, agentName: byId.get(claim.agent_id) ?? null })),
    }
  }
  const [agent, corrections, requests] = await Promise.all([
    supabase.from('agents').select(OWNER_AGENT_COLUMNS).eq('id', approved.agent_id).single(),
    supabase
      .from('agent_corrections')
      .select(CORRECTION_COLUMNS)
      .eq('agent_id', approved.agent_id)
      .eq('user_id', session.user.id)
      .order('created_at', { ascending: false })
      .limit(100),
    supabase
      .from('agent_visibility_requests')
      .select(REQUEST_COLUMNS)
      .eq('agent_id', approved.agent_id)
      .eq('user_id', session.user.id)
      .order('created_at', { ascending: false })
      .limit(10),
  ])
  if (agent.error) return { kind: 'failed', message: `Could not load your profile: ${agent.error.message}` }
  if (corrections.error)
    return { kind: 'failed', message: `Could not load your corrections: ${corrections.error.message}` }
  if (requests.error) return { kind: 'failed', message: `Could not load your requests: ${requests.error.message}` }
  return { kind: 'owner', session, agent: agent.data, corrections: corrections.data, requests: requests.data }
}

/**
 * /account/agent: the agent who claimed a profile completes it (bio, specialties, languages, photo), asks for its
 * contact details to be hidden or for it to stay out of search engines, and files corrections of their record
 * (not my sale, wrong side, wrong price or date, missing sale), each reviewed by an administrator. Edits are saved
 * at once and reach the public page with the next site build. Without a claimed profile it lists the visitor's
 * claims and their state; signed out, it asks to sign in. `?sale=<MLS number>&kind=<kind>` opens the correction form
 * filled in (the link from the sales behind a figure).
 */
export function AgentOwnerEditor() {
  const [state, setState] = useState<State>({ kind: 'loading' })

  const reload = () =>
    loadOwner()
      .then(setState)
      .catch((unexpected: unknown) => {
        console.error('agent owner page', unexpected)
        setState({ kind: 'failed', message: CONNECTION_MESSAGE })
      })

  useEffect(() => {
    void reload()
  }, [])

  return (
    <div className="mx-auto w-full max-w-3xl space-y-6">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Your agent profile</h1>
      {state.kind === 'loading' && (
        <p role="status" className="text-slate-700">
          Loading your agent profile…
        </p>
      )}
      {state.kind === 'failed' && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-red-800">
          {state.message}
        </p>
      )}
      {state.kind === 'signed-out' && (
        <Card title="Sign in first">
          <p className="text-slate-800">Sign in with the account you claimed your profile with.</p>
          <a href={signInUrl()} className={`mt-3 inline-block ${buttonClass}`}>
            Sign in
          </a>
        </Card>
      )}
      {state.kind === 'no-profile' && <NoProfile claims={state.claims} />}
      {state.kind === 'owner' && (
        <>
          <ProfileHeader agent={state.agent} />
          <ProfileForm agent={state.agent} onSaved={(agent) => setState({ ...state, agent })} />
          <PhotoForm
            agent={state.agent}
            session={state.session}
            onChanged={(photo_url) => setState({ ...state, agent: { ...state.agent, photo_url } })}
          />
          <VisibilityForm agent={state.agent} requests={state.requests} onChanged={reload} />
          <CorrectionsPanel agent={state.agent} corrections={state.corrections} onChanged={reload} />
        </>
      )}
    </div>
  )
}

function Card({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  const headingId = useId()
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <h2 id={headingId} className="text-lg font-semibold">
        {title}
      </h2>
      <div className="mt-3">{children}</div>
    </section>
  )
}

function NoProfile({ claims }: { claims: (OwnClaim & { agentName: string | null })[] }) {
  return (
    <Card title="No claimed profile yet">
      <p className="text-slate-800">
        Open your profile on AgentInsight (search for your name) and use “Claim this profile”. We check your license
        number and email a code to the address on your MLS record.
      </p>
      <a href="/search" className={`mt-3 inline-block ${buttonClass}`}>
        Find your profile
      </a>
      {claims.length > 0 && (
        <>
          <h3 className="mt-5 font-semibold">Your claims</h3>
          <ul className="mt-2 divide-y divide-slate-200">
            {claims.map((claim) => (
              <li key={claim.id} className="py-2 text-sm">
                <span className="font-medium">{claim.agentName ?? 'Agent'}</span>:{' '}
                {CLAIM_STATUS_LABELS[claim.status as keyof typeof CLAIM_STATUS_LABELS] ?? claim.status}
                {claim.status === 'code_sent' && claim.code_sent_to && ` (to ${claim.code_sent_to})`}
                {claim.decision_reason && <span className="block text-slate-700">Reason: {claim.decision_reason}</span>}
                {['code_sent', 'rejected'].includes(claim.status) && (
                  <a
                    href={`/account/claim?agent=${encodeURIComponent(claim.agent_id)}`}
                    className="ml-2 text-blue-700 underline"
                  >
                    {claim.status === 'code_sent' ? 'Enter the code or send a new one' : 'Claim again'}
                  </a>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  )
}

function ProfileHeader({ agent }: { agent: OwnerAgent }) {
  const claimed = claimedLine(agent.claimed_at)
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
      <p className="text-xl font-semibold">{agent.name}</p>
      {agent.brokerage && <p className="text-slate-700">{agent.brokerage}</p>}
      {claimed && <p className="mt-1 text-sm text-green-900">{claimed}</p>}
      <p className="mt-3 text-sm text-slate-700">
        Changes are saved at once and appear on your public profile after the next site build, usually within a few
        minutes.{' '}
        <a href={agentUrl(agent.id)} className="font-medium text-blue-700 underline">
          View your public profile
        </a>
      </p>
    </div>
  )
}

function ProfileForm({ agent, onSaved }: { agent: OwnerAgent; onSaved: (agent: OwnerAgent) => void }) {
  const [bio, setBio] = useState(agent.bio ?? '')
  const [specialties, setSpecialties] = useState((agent.specialties ?? []).join('\n'))
  const [languages, setLanguages] = useState((agent.languages ?? []).join('\n'))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [saved, setSaved] = useState(false)

  async function submit(event: { preventDefault: () => void }) {
    event.preventDefault()
    setSaved(false)
    const parsed = AgentProfileEditSchema.safeParse({
      bio,
      specialties: splitList(specialties),
      languages: splitList(languages),
    })
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Check the form')
    setBusy(true)
    setError(null)
    try {
      const supabase = await siteClient()
      const { data, error: updateError } = await supabase
        .from('agents')
        .update(parsed.data)
        .eq('id', agent.id)
        .select(OWNER_AGENT_COLUMNS)
        .single()
      if (updateError) setError(databaseMessage(updateError))
      else {
        onSaved(data)
        setBio(data.bio ?? '')
        setSpecialties(data.specialties.join('\n'))
        setLanguages(data.languages.join('\n'))
        setSaved(true)
      }
    } catch {
      setError(CONNECTION_MESSAGE)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card title="About you">
      <form onSubmit={submit} className="space-y-4" noValidate>
        <div>
          <label htmlFor="owner-bio" className="block text-sm font-medium text-slate-800">
            Bio
          </label>
          <textarea
            id="owner-bio"
            value={bio}
            onChange={(event) => setBio(event.target.value)}
            rows={6}
            maxLength={PROFILE_LIMITS.bio}
            aria-describedby="owner-bio-hint"
            className={fieldClass}
          />
          <p id="owner-bio-hint" className="mt-1 text-sm text-slate-600">
            Plain text, at most {PROFILE_LIMITS.bio.toLocaleString('en-US')} characters ({bio.length} used). Leave a
            blank line between paragraphs.
          </p>
        </div>
        <ListField
          id="owner-specialties"
          label="Specialties"
          value={specialties}
          onChange={setSpecialties}
          hint={`One a line, at most ${PROFILE_LIMITS.specialties.items} (for example: first-time buyers, condos).`}
        />
        <ListField
          id="owner-languages"
          label="Languages"
          value={languages}
          onChange={setLanguages}
          hint={`One a line, at most ${PROFILE_LIMITS.languages.items}.`}
        />
        <FormError message={error} />
        {saved && (
          <p role="status" className="rounded-md bg-green-50 px-3 py-2 text-sm text-green-900">
            Saved. Your public profile shows it after the next site build.
          </p>
        )}
        <button type="submit" disabled={busy} className={buttonClass}>
          {busy ? 'Saving…' : 'Save profile'}
        </button>
      </form>
    </Card>
  )
}

function ListField({
  id,
  label,
  value,
  onChange,
  hint,
}: {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  hint: string
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <textarea
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        rows={3}
        aria-describedby={`${id}-hint`}
        className={fieldClass}
      />
      <p id={`${id}-hint`} className="mt-1 text-sm text-slate-600">
        {hint}
      </p>
    </div>
  )
}

function PhotoForm({
  agent,
  session,
  onChanged,
}: {
  agent: OwnerAgent
  session: Session
  onChanged: (photoUrl: string | null) => void
}) {
  const [busy, setBusy] = useState<'upload' | 'remove' | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)

  async function change(file: File | null) {
    setDone(null)
    setError(null)
    if (file) {
      const problem = agentPhotoProblem(file)
      if (problem) return setError(problem)
    }
    setBusy(file ? 'upload' : 'remove')
    try {
      let objectName: string | null = null
      if (file) {
        const supabase = await siteClient()
        const extension = file.type.split('/')[1] === 'jpeg' ? 'jpg' : file.type.split('/')[1]
        objectName = `${agent.id}/${crypto.randomUUID()}.${extension}`
        const upload = await supabase.storage
          .from(AGENT_PHOTO_BUCKET)
          .upload(objectName, file, { contentType: file.type, upsert: false })
        if (upload.error) return setError(`Could not upload the photo: ${upload.error.message}`)
      }
      const response = await callAsUser<{ photoUrl: string | null }>(
        'agent-photo',
        { agentId: agent.id, objectName },
        session,
      )
      if (!response.ok || !response.body) return setError(answerError(response))
      onChanged(response.body.photoUrl)
      setDone(file ? 'Photo saved.' : 'Photo removed.')
    } catch {
      setError(CONNECTION_MESSAGE)
    } finally {
      setBusy(null)
    }
  }

  return (
    <Card title="Photo">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
        {agent.photo_url ? (
          <img
            src={agent.photo_url}
            alt={`Photo of ${agent.name}`}
            className="h-24 w-24 rounded-full object-cover"
            width={96}
            height={96}
          />
        ) : (
          <p className="text-sm text-slate-700">No photo yet.</p>
        )}
        <div className="space-y-2">
          <label htmlFor="owner-photo" className="block text-sm font-medium text-slate-800">
            Choose a photo (JPEG, PNG, WebP, AVIF or GIF, at most 5 MB)
          </label>
          <input
            id="owner-photo"
            type="file"
            accept={AGENT_PHOTO_TYPES.join(',')}
            disabled={busy !== null}
            onChange={(event) => {
              const file = event.target.files?.[0] ?? null
              event.target.value = ''
              if (file) void change(file)
            }}
            className="block text-sm"
          />
          {agent.photo_url && (
            <button
              type="button"
              className={secondaryButtonClass}
              disabled={busy !== null}
              onClick={() => void change(null)}
            >
              {busy === 'remove' ? 'Removing…' : 'Remove photo'}
            </button>
          )}
          {busy === 'upload' && (
            <p role="status" className="text-sm text-slate-700">
              Uploading…
            </p>
          )}
        </div>
      </div>
      <div className="mt-3">
        <FormError message={error} />
        {done && (
          <p role="status" className="text-sm text-green-900">
            {done}
          </p>
        )}
      </div>
    </Card>
  )
}

function VisibilityForm({
  agent,
  requests,
  onChanged,
}: {
  agent: OwnerAgent
  requests: OwnRequest[]
  onChanged: () => Promise<void>
}) {
  const pending = requests.find((request) => request.status === 'pending')
  const [hidePhone, setHidePhone] = useState(pending?.hide_phone ?? agent.hide_phone)
  const [hideEmail, setHideEmail] = useState(pending?.hide_email ?? agent.hide_email)
  const [noindex, setNoindex] = useState(pending?.noindex ?? agent.noindex)
  const [note, setNote] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const latestDecided = requests.find((request) => request.status === 'accepted' || request.status === 'rejected')

  async function run(action: () => PromiseLike<{ error: { message: string } | null }>) {
    setBusy(true)
    setError(null)
    try {
      const { error: writeError } = await action()
      if (writeError) setError(databaseMessage(writeError))
      else await onChanged()
    } catch {
      setError(CONNECTION_MESSAGE)
    } finally {
      setBusy(false)
    }
  }

  async function submit(event: { preventDefault: () => void }) {
    event.preventDefault()
    const parsed = VisibilityRequestSchema.safeParse({
      hide_phone: hidePhone,
      hide_email: hideEmail,
      noindex,
      ...(note.trim() ? { note } : {}),
    })
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Check the form')
    const supabase = await siteClient()
    await run(() => supabase.from('agent_visibility_requests').insert({ agent_id: agent.id, ...parsed.data }))
  }

  return (
    <Card title="Contact details and search engines">
      <p className="text-sm text-slate-700">
        Our team reviews each request. Your sales stay counted in every figure and in ZIP and city totals either way.
      </p>
      <p className="mt-2 text-sm text-slate-800">
        Now: phone {agent.hide_phone ? 'hidden' : 'shown'}, email {agent.hide_email ? 'hidden' : 'shown'},{' '}
        {agent.noindex ? 'kept out of search engines' : 'listed in search engines'}.
      </p>
      {pending && (
        <div role="status" className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950">
          A request is waiting for review (sent {formatDate(pending.created_at.slice(0, 10))}).{' '}
          <button
            type="button"
            className="font-medium underline"
            disabled={busy}
            onClick={async () => {
              const supabase = await siteClient()
              await run(() =>
                supabase.from('agent_visibility_requests').update({ status: 'withdrawn' }).eq('id', pending.id),
              )
            }}
          >
            Withdraw it
          </button>
        </div>
      )}
      {!pending && latestDecided?.status === 'rejected' && latestDecided.decision_reason && (
        <p className="mt-3 text-sm text-slate-800">
          Your last request was not accepted: {latestDecided.decision_reason}
        </p>
      )}
      <form onSubmit={submit} className="mt-4 space-y-3" noValidate>
        <Checkbox id="owner-hide-phone" label="Hide my phone number" checked={hidePhone} onChange={setHidePhone} />
        <Checkbox id="owner-hide-email" label="Hide my email address" checked={hideEmail} onChange={setHideEmail} />
        <Checkbox
          id="owner-noindex"
          label="Keep my profile out of search engines"
          checked={noindex}
          onChange={setNoindex}
        />
        <TextField
          id="owner-visibility-note"
          label="Note for our team (optional)"
          value={note}
          onValueChange={setNote}
        />
        <FormError message={error} />
        <button type="submit" disabled={busy} className={buttonClass}>
          {busy ? 'Sending…' : 'Send request'}
        </button>
      </form>
    </Card>
  )
}

function Checkbox({
  id,
  label,
  checked,
  onChange,
}: {
  id: string
  label: string
  checked: boolean
  onChange: (checked: boolean) => void
}) {
  return (
    <div className="flex items-center gap-2">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="h-5 w-5 rounded border-slate-400"
      />
      <label htmlFor={id} className="text-slate-800">
        {label}
      </label>
    </div>
  )
}

/**
 * The sale a link from the sales behind a figure names (`?kind=&sale=<MLS number>&property=<properties.id>`): the
 * form opens filled in, and files by the sale's id while the MLS number is left as given.
 */
function correctionFromUrl(): { kind: CorrectionKind; sale: string; propertyId: string | null } | null {
  const params = new URLSearchParams(window.location.search)
  const sale = params.get('sale')?.trim() ?? ''
  const kind = params.get('kind') as CorrectionKind | null
  const property = params.get('property')?.trim().toLowerCase() ?? ''
  if (!sale && !kind && !property) return null
  return {
    kind: kind && CORRECTION_KINDS.includes(kind) ? kind : 'not_my_sale',
    sale,
    propertyId: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(property) ? property : null,
  }
}

function correctionSummary(correction: OwnCorrection): string {
  const sale = [correction.address, correction.listing_number ? `MLS ${correction.listing_number}` : null]
    .filter(Boolean)
    .join(', ')
  const detail =
    correction.kind === 'wrong_price_date'
      ? [
          correction.close_price !== null ? formatUsd(correction.close_price) : null,
          correction.close_date ? formatDate(correction.close_date) : null,
          correction.list_price !== null ? `list ${formatUsd(correction.list_price)}` : null,
        ]
          .filter(Boolean)
          .join(', ')
      : correction.side
        ? `${correction.side} side`
        : ''
  return [sale, detail].filter(Boolean).join(' · ')
}

function CorrectionsPanel({
  agent,
  corrections,
  onChanged,
}: {
  agent: OwnerAgent
  corrections: OwnCorrection[]
  onChanged: () => Promise<void>
}) {
  const [busy, setBusy] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)

  async function withdraw(id: string) {
    setBusy(id)
    setError(null)
    try {
      const supabase = await siteClient()
      const { error: writeError } = await supabase
        .from('agent_corrections')
        .update({ status: 'withdrawn' })
        .eq('id', id)
      if (writeError) setError(databaseMessage(writeError))
      else await onChanged()
    } catch {
      setError(CONNECTION_MESSAGE)
    } finally {
      setBusy(null)
    }
  }

  return (
    <Card title="Corrections of your record" id="corrections">
      <p className="text-sm text-slate-700">
        A correction never edits the MLS record: once our team accepts it, your figures and sales list are recomputed
        with it, and the sale is marked on your profile. {agent.corrections_accepted} accepted,{' '}
        {agent.corrections_pending} pending.
      </p>
      <CorrectionForm agentId={agent.id} onFiled={onChanged} />
      <FormError message={error} />
      {corrections.length === 0 ? (
        <p className="mt-4 text-sm text-slate-700">You have not filed any corrections.</p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-200" aria-label="Your corrections">
          {corrections.map((correction) => (
            <li key={correction.id} className="flex flex-col gap-1 py-3 text-sm sm:flex-row sm:items-start">
              <div className="min-w-0 flex-1">
                <p className="font-medium">
                  {CORRECTION_KIND_LABELS[correction.kind as CorrectionKind] ?? correction.kind}:{' '}
                  {REQUEST_STATUS_LABELS[correction.status as keyof typeof REQUEST_STATUS_LABELS] ?? correction.status}
                </p>
                <p className="break-words text-slate-700">{correctionSummary(correction)}</p>
                {correction.decision_reason && <p className="text-slate-700">Reason: {correction.decision_reason}</p>}
              </div>
              {correction.status === 'pending' && (
                <button
                  type="button"
                  className={secondaryButtonClass}
                  disabled={busy !== null}
                  onClick={() => void withdraw(correction.id)}
                >
                  {busy === correction.id ? 'Withdrawing…' : 'Withdraw'}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}

function CorrectionForm({ agentId, onFiled }: { agentId: string; onFiled: () => Promise<void> }) {
  const [initial] = useState(correctionFromUrl)
  const [kind, setKind] = useState<CorrectionKind>(initial?.kind ?? 'not_my_sale')
  const [listingNumber, setListingNumber] = useState(initial?.sale ?? '')
  // the sale the link named, while the MLS number is the one it gave
  const propertyId = initial?.propertyId && listingNumber === initial.sale ? initial.propertyId : null
  const [side, setSide] = useState<'listing' | 'buyer' | ''>('')
  const [closePrice, setClosePrice] = useState('')
  const [closeDate, setCloseDate] = useState('')
  const [listPrice, setListPrice] = useState('')
  const [address, setAddress] = useState('')
  const [explanation, setExplanation] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [filed, setFiled] = useState(false)

  function body() {
    const common = {
      kind,
      ...(propertyId && kind !== 'missing_sale' ? { property_id: propertyId } : {}),
      ...(listingNumber.trim() ? { listing_number: listingNumber } : {}),
      ...(explanation.trim() ? { explanation } : {}),
    }
    if (kind === 'wrong_side' || kind === 'missing_sale') Object.assign(common, side ? { side } : {})
    if (kind === 'missing_sale' || address.trim()) Object.assign(common, { address })
    if (kind === 'wrong_price_date') {
      const dollars = (text: string) => Number(text.replace(/[$,\s]/g, ''))
      Object.assign(
        common,
        closePrice.trim() ? { close_price: dollars(closePrice) } : {},
        closeDate ? { close_date: closeDate } : {},
        listPrice.trim() ? { list_price: dollars(listPrice) } : {},
      )
    }
    return common
  }

  async function submit(event: { preventDefault: () => void }) {
    event.preventDefault()
    setFiled(false)
    const parsed = CorrectionRequestSchema.safeParse(body())
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Check the form')
    setBusy(true)
    setError(null)
    try {
      const supabase = await siteClient()
      const { error: insertError } = await supabase
        .from('agent_corrections')
        .insert({ agent_id: agentId, ...parsed.data })
      if (insertError) setError(databaseMessage(insertError))
      else {
        setFiled(true)
        setListingNumber('')
        setAddress('')
        setClosePrice('')
        setCloseDate('')
        setListPrice('')
        setExplanation('')
        await onFiled()
      }
    } catch {
      setError(CONNECTION_MESSAGE)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form onSubmit={submit} className="mt-4 space-y-4 rounded-lg bg-slate-50 p-4" noValidate>
      <h3 className="font-semibold">File a correction</h3>
      <div>
        <label htmlFor="correction-kind" className="block text-sm font-medium text-slate-800">
          What is wrong?
        </label>
        <select
          id="correction-kind"
          value={kind}
          onChange={(event) => setKind(event.target.value as CorrectionKind)}
          className={fieldClass}
        >
          {CORRECTION_KINDS.map((value) => (
            <option key={value} value={value}>
              {CORRECTION_KIND_LABELS[value]}
            </option>
          ))}
        </select>
      </div>
      <TextField
        id="correction-mls"
        label="MLS number of the sale"
        value={listingNumber}
        onValueChange={setListingNumber}
        autoComplete="off"
        hint="As the sales behind your figures show it (record id)."
      />
      {(kind === 'wrong_side' || kind === 'missing_sale') && (
        <div>
          <label htmlFor="correction-side" className="block text-sm font-medium text-slate-800">
            The side you had
          </label>
          <select
            id="correction-side"
            value={side}
            onChange={(event) => setSide(event.target.value as 'listing' | 'buyer' | '')}
            className={fieldClass}
          >
            <option value="">Pick a side</option>
            <option value="listing">Listing side</option>
            <option value="buyer">Buyer side</option>
          </select>
        </div>
      )}
      <TextField
        id="correction-address"
        label={kind === 'missing_sale' ? 'Address of the sale' : 'Address of the sale (optional)'}
        value={address}
        onValueChange={setAddress}
        hint={kind === 'missing_sale' ? undefined : 'Needed only when the same MLS number is in two of our feeds.'}
      />
      {kind === 'wrong_price_date' && (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            id="correction-price"
            label="Right close price (USD)"
            value={closePrice}
            onValueChange={setClosePrice}
            inputMode="decimal"
          />
          <TextField
            id="correction-date"
            label="Right close date"
            type="date"
            value={closeDate}
            onValueChange={setCloseDate}
          />
          <TextField
            id="correction-list-price"
            label="Right list price (USD, optional)"
            value={listPrice}
            onValueChange={setListPrice}
            inputMode="decimal"
          />
        </div>
      )}
      <div>
        <label htmlFor="correction-explanation" className="block text-sm font-medium text-slate-800">
          Explanation for our team (optional)
        </label>
        <textarea
          id="correction-explanation"
          value={explanation}
          onChange={(event) => setExplanation(event.target.value)}
          rows={3}
          maxLength={PROFILE_LIMITS.explanation}
          className={fieldClass}
        />
      </div>
      <FormError message={error} />
      {filed && (
        <p role="status" className="rounded-md bg-green-50 px-3 py-2 text-sm text-green-900">
          Correction filed. We will email you when it is decided.
        </p>
      )}
      <button type="submit" disabled={busy} className={buttonClass}>
        {busy ? 'Filing…' : 'File correction'}
      </button>
    </form>
  )
}
