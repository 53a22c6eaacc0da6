import { useEffect, useState, type SubmitEvent } from 'react'
import type { Session } from '@supabase/supabase-js'

import {
  CLAIM_CODE_MINUTES,
  ClaimReviewSchema,
  ClaimStartSchema,
  ClaimVerifySchema,
  type ClaimReviewAnswer,
  type ClaimStartAnswer,
  type ClaimVerifyAnswer,
} from '@shared/agent-claims.ts'
import { claimedLine } from '@shared/agent-claim-words.ts'
import { agentUrl, isUuid } from '@shared/urls.ts'
import { answerError, callAsUser, currentSession, signInUrl, siteClient, type AgentRow } from '../lib/agent-owner'
import { FormError, TextField } from './form-parts'

type AgentSummary = Pick<AgentRow, 'id' | 'name' | 'brokerage' | 'city' | 'state' | 'claimed_at'>

type Step =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | { kind: 'signed-out'; agent: AgentSummary }
  | { kind: 'license'; agent: AgentSummary; session: Session }
  | { kind: 'code'; agent: AgentSummary; session: Session; claimId: string; sentTo: string }
  | { kind: 'review'; agent: AgentSummary; session: Session }
  | { kind: 'reviewed'; agent: AgentSummary }
  | { kind: 'claimed'; agent: AgentSummary }

const buttonClass =
  'w-full rounded-md bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-wait disabled:opacity-70'
const linkButtonClass = 'text-sm font-medium text-blue-700 underline hover:text-blue-900'

/** The first problem of a zod check, or null. */
function firstIssue(result: { success: boolean; error?: { issues: { message: string }[] } }): string | null {
  return result.success ? null : (result.error?.issues[0]?.message ?? 'Check the form')
}

/**
 * /account/claim?agent=<id>: a signed-in user claims an agent profile. Step one checks the license number and mails a
 * code to the email on the agent's MLS record; step two takes the code; the profile is then theirs to complete
 * (/account/agent). An agent whose MLS email is out of date asks for a review instead, which an administrator
 * decides by hand. Signed-out visitors are sent to sign in first; every refusal shows the server's words.
 */
export function AgentClaim() {
  const [step, setStep] = useState<Step>({ kind: 'loading' })

  useEffect(() => {
    let cancelled = false
    const agentId = new URLSearchParams(window.location.search).get('agent') ?? ''
    ;(async () => {
      if (!isUuid(agentId)) {
        setStep({
          kind: 'failed',
          message: 'This link names no agent. Open the profile you want to claim and use "Claim this profile".',
        })
        return
      }
      const supabase = await siteClient()
      const [{ data, error }, session] = await Promise.all([
        supabase.from('agents').select('id, name, brokerage, city, state, claimed_at').eq('id', agentId).maybeSingle(),
        currentSession(),
      ])
      if (cancelled) return
      if (error) setStep({ kind: 'failed', message: `Could not load the agent: ${error.message}` })
      else if (!data) setStep({ kind: 'failed', message: 'No agent has this id.' })
      else if (!session) setStep({ kind: 'signed-out', agent: data })
      else setStep({ kind: 'license', agent: data, session })
    })().catch((unexpected: unknown) => {
      console.error('claim page', unexpected)
      if (!cancelled)
        setStep({ kind: 'failed', message: 'Could not reach the server. Check your connection and try again.' })
    })
    return () => {
      cancelled = true
    }
  }, [])

  return (
    <div className="mx-auto w-full max-w-lg rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <h1 className="text-2xl font-bold tracking-tight">Claim your agent profile</h1>
      {step.kind === 'loading' && (
        <p role="status" className="mt-4 text-slate-700">
          Loading…
        </p>
      )}
      {step.kind === 'failed' && (
        <p role="alert" className="mt-4 text-red-800">
          {step.message}
        </p>
      )}
      {'agent' in step && <AgentHeading agent={step.agent} />}
      {step.kind === 'signed-out' && (
        <div className="mt-4 space-y-3 text-slate-800">
          <p>Sign in or create a free account first. Then come back to this page to claim the profile.</p>
          <a
            href={signInUrl()}
            className="inline-block rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
          >
            Sign in to claim this profile
          </a>
        </div>
      )}
      {step.kind === 'license' && (
        <LicenseStep
          agent={step.agent}
          session={step.session}
          onSent={(claimId, sentTo) => setStep({ ...step, kind: 'code', claimId, sentTo })}
          onReview={() => setStep({ kind: 'review', agent: step.agent, session: step.session })}
        />
      )}
      {step.kind === 'code' && (
        <CodeStep
          claimId={step.claimId}
          sentTo={step.sentTo}
          session={step.session}
          onClaimed={() => setStep({ kind: 'claimed', agent: step.agent })}
          onRestart={() => setStep({ kind: 'license', agent: step.agent, session: step.session })}
        />
      )}
      {step.kind === 'review' && (
        <ReviewStep
          agent={step.agent}
          session={step.session}
          onDone={() => setStep({ kind: 'reviewed', agent: step.agent })}
          onBack={() => setStep({ kind: 'license', agent: step.agent, session: step.session })}
        />
      )}
      {step.kind === 'reviewed' && (
        <p role="status" className="mt-4 font-medium text-green-800">
          Thank you. We will check your claim by hand and email you when it is decided.
        </p>
      )}
      {step.kind === 'claimed' && (
        <div className="mt-4 space-y-3">
          <p role="status" className="font-semibold text-green-800">
            The profile is yours. You can now add your bio, specialties and photo.
          </p>
          <a
            href="/account/agent"
            className="inline-block rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
          >
            Complete your profile
          </a>
        </div>
      )}
    </div>
  )
}

function AgentHeading({ agent }: { agent: AgentSummary }) {
  const place = [agent.city, agent.state].filter(Boolean).join(', ')
  const claimed = claimedLine(agent.claimed_at)
  return (
    <div className="mt-3 rounded-md bg-slate-50 px-4 py-3">
      <p className="font-semibold text-slate-900">
        <a href={agentUrl(agent.id)} className="underline">
          {agent.name}
        </a>
      </p>
      {(agent.brokerage || place) && (
        <p className="text-sm text-slate-700">{[agent.brokerage, place].filter(Boolean).join(' · ')}</p>
      )}
      {claimed && <p className="mt-1 text-sm text-slate-700">{claimed}.</p>}
    </div>
  )
}

function LicenseStep({
  agent,
  session,
  onSent,
  onReview,
}: {
  agent: AgentSummary
  session: Session
  onSent: (claimId: string, sentTo: string) => void
  onReview: () => void
}) {
  const [licenseNumber, setLicenseNumber] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault()
    const body = { action: 'start' as const, agentId: agent.id, licenseNumber }
    const problem = firstIssue(ClaimStartSchema.safeParse(body))
    if (problem) return setError(problem)
    setBusy(true)
    setError(null)
    try {
      const response = await callAsUser<ClaimStartAnswer>('agent-claim', body, session)
      if (response.ok && response.body) onSent(response.body.claimId, response.body.sentTo)
      else setError(answerError(response))
    } catch {
      setError('Could not reach the server. Check your connection and try again.')
    } finally {
      setBusy(false)
    }
  }

  return (
    <form onSubmit={submit} className="mt-5 space-y-4" noValidate>
      <p className="text-slate-800">
        Enter your real-estate license number. We check it against your MLS record and email a 6-digit code to the
        address on that record.
      </p>
      <TextField
        id="claim-license"
        label="License number"
        value={licenseNumber}
        onValueChange={setLicenseNumber}
        autoComplete="off"
        required
        aria-describedby={error ? 'claim-error' : undefined}
      />
      <FormError id="claim-error" message={error} />
      <button type="submit" disabled={busy} className={buttonClass}>
        {busy ? 'Sending…' : 'Email me a code'}
      </button>
      <p className="text-center">
        <button type="button" onClick={onReview} className={linkButtonClass}>
          My MLS email is out of date: ask for a review
        </button>
      </p>
    </form>
  )
}

function CodeStep({
  claimId,
  sentTo,
  session,
  onClaimed,
  onRestart,
}: {
  claimId: string
  sentTo: string
  session: Session
  onClaimed: () => void
  onRestart: () => void
}) {
  const [code, setCode] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault()
    const body = { action: 'verify' as const, claimId, code }
    const problem = firstIssue(ClaimVerifySchema.safeParse(body))
    if (problem) return setError(problem)
    setBusy(true)
    setError(null)
    try {
      const response = await callAsUser<ClaimVerifyAnswer>('agent-claim', body, session)
      if (response.ok) onClaimed()
      else setError(answerError(response))
    } catch {
      setError('Could not reach the server. Check your connection and try again.')
    } finally {
      setBusy(false)
    }
  }

  return (
    <form onSubmit={submit} className="mt-5 space-y-4" noValidate>
      <p role="status" className="text-slate-800">
        We emailed a code to {sentTo}, the address on your MLS record. It is valid for {CLAIM_CODE_MINUTES} minutes.
      </p>
      <TextField
        id="claim-code"
        label="Code from the email"
        value={code}
        onValueChange={setCode}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        required
        aria-describedby={error ? 'code-error' : undefined}
      />
      <FormError id="code-error" message={error} />
      <button type="submit" disabled={busy} className={buttonClass}>
        {busy ? 'Checking…' : 'Confirm the claim'}
      </button>
      <p className="text-center">
        <button type="button" onClick={onRestart} className={linkButtonClass}>
          Send a new code
        </button>
      </p>
    </form>
  )
}

function ReviewStep({
  agent,
  session,
  onDone,
  onBack,
}: {
  agent: AgentSummary
  session: Session
  onDone: () => void
  onBack: () => void
}) {
  const [licenseNumber, setLicenseNumber] = useState('')
  const [message, setMessage] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault()
    const body = {
      action: 'review' as const,
      agentId: agent.id,
      message,
      ...(licenseNumber.trim() ? { licenseNumber } : {}),
    }
    const problem = firstIssue(ClaimReviewSchema.safeParse(body))
    if (problem) return setError(problem)
    setBusy(true)
    setError(null)
    try {
      const response = await callAsUser<ClaimReviewAnswer>('agent-claim', body, session)
      if (response.ok) onDone()
      else setError(answerError(response))
    } catch {
      setError('Could not reach the server. Check your connection and try again.')
    } finally {
      setBusy(false)
    }
  }

  return (
    <form onSubmit={submit} className="mt-5 space-y-4" noValidate>
      <p className="text-slate-800">
        Tell us how we can check that you are this agent (for example your brokerage's phone number or your current
        email). Someone from our team reviews every request by hand.
      </p>
      <TextField
        id="review-license"
        label="License number (optional)"
        value={licenseNumber}
        onValueChange={setLicenseNumber}
      />
      <div>
        <label htmlFor="review-message" className="block text-sm font-medium text-slate-800">
          How can we check it is you?
        </label>
        <textarea
          id="review-message"
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          rows={4}
          maxLength={1000}
          required
          className="mt-1 block w-full rounded-control border border-slate-400 px-3 py-2 text-base text-slate-900 focus:border-brand-700 focus:outline-2 focus:outline-brand-700"
        />
      </div>
      <FormError message={error} />
      <button type="submit" disabled={busy} className={buttonClass}>
        {busy ? 'Sending…' : 'Ask for a review'}
      </button>
      <p className="text-center">
        <button type="button" onClick={onBack} className={linkButtonClass}>
          Back to the code
        </button>
      </p>
    </form>
  )
}
