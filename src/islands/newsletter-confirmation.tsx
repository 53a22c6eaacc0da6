import { useState } from 'react'

import { NEWSLETTER_LINK_INVALID, type NewsletterConfirmAnswer } from '@shared/newsletter.ts'
import { callFunction } from '../lib/functions-client'

type Stage =
  | { kind: 'ready' }
  | { kind: 'sending' }
  | { kind: 'done'; message: string }
  | { kind: 'failed'; message: string; retry: boolean }

/**
 * /newsletter/confirm?token=…: the page a newsletter confirmation email links to. Opening the link confirms nothing
 * (mail scanners open links too): the visitor presses "Confirm my subscription", which posts the token to
 * newsletter-subscribe, and the page says what happened (subscribed, already subscribed, or an expired link).
 */
export function NewsletterConfirmation() {
  // rendered in the browser only (client:only), so the link's token decides the first screen
  const [token] = useState(() => new URLSearchParams(window.location.search).get('token') ?? '')
  const [stage, setStage] = useState<Stage>(
    /^[0-9a-f]{64}$/.test(token)
      ? { kind: 'ready' }
      : { kind: 'failed', message: NEWSLETTER_LINK_INVALID, retry: false },
  )

  async function confirm() {
    setStage({ kind: 'sending' })
    try {
      const response = await callFunction<NewsletterConfirmAnswer>('newsletter-subscribe', { token })
      const answer = response.body
      if (response.ok && answer && 'outcome' in answer) setStage({ kind: 'done', message: answer.message })
      else
        setStage({
          kind: 'failed',
          message:
            answer && 'error' in answer
              ? answer.error
              : `Could not confirm (error ${response.status}). Please try again.`,
          retry: response.status >= 500 || response.status === 429,
        })
    } catch (error) {
      console.error('Newsletter confirmation failed', error)
      setStage({
        kind: 'failed',
        message: 'Could not reach the server. Check your connection and try again.',
        retry: true,
      })
    }
  }

  return (
    <div className="mx-auto w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <h1 className="text-center text-2xl font-bold tracking-tight">Confirm your subscription</h1>
      {(stage.kind === 'ready' || stage.kind === 'sending') && (
        <>
          <p className="mt-4 text-slate-700">
            You signed up for the AgentInsight newsletter: new market guides and agent tips, about twice a month.
            Confirm that this email address is yours to start receiving it.
          </p>
          <button
            type="button"
            onClick={() => void confirm()}
            disabled={stage.kind === 'sending'}
            aria-busy={stage.kind === 'sending'}
            className="mt-6 w-full rounded-md bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-60"
          >
            {stage.kind === 'sending' ? 'Confirming…' : 'Confirm my subscription'}
          </button>
          <p className="mt-3 text-sm text-slate-600">
            Did not sign up? Close this page and nothing will be sent to you.
          </p>
        </>
      )}
      {stage.kind === 'done' && (
        <p role="status" className="mt-6 text-center font-semibold text-green-800">
          {stage.message}
        </p>
      )}
      {stage.kind === 'failed' && (
        <div className="mt-6 text-center">
          <p role="alert" className="text-red-700">
            {stage.message}
          </p>
          {stage.retry && (
            <button
              type="button"
              onClick={() => void confirm()}
              className="mt-4 rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-700"
            >
              Try again
            </button>
          )}
        </div>
      )}
      <p className="mt-8 text-center text-sm">
        <a href="/privacy" className="text-brand-700 underline">
          How we use your email
        </a>
        {' · '}
        <a href="/" className="text-brand-700 underline">
          Back to AgentInsight
        </a>
      </p>
    </div>
  )
}
