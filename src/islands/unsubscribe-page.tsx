import { useState } from 'react'

import {
  UNSUBSCRIBE_INVALID_MESSAGE,
  UNSUBSCRIBE_TOKEN_PATTERN,
  type UnsubscribeAnswer,
  type UnsubscribeBody,
} from '@shared/unsubscribe.ts'
import { callFunction } from '../lib/functions-client'

type Stage =
  | { kind: 'ready' }
  | { kind: 'sending'; action: 'unsubscribe' | 'resubscribe' }
  | { kind: 'done'; status: 'unsubscribed' | 'resubscribed'; message: string }
  | { kind: 'failed'; message: string; retry: UnsubscribeBody['action'] | null }

const buttonClass =
  'mt-6 w-full rounded-md bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-60'
const secondaryClass =
  'mt-4 rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-700 disabled:opacity-60'

/**
 * /unsubscribe?token=…: the page the footer link of every email opens. Opening it changes nothing; Unsubscribe posts
 * the token to the unsubscribe function, after which no email of ours reaches that address, and the same token can
 * turn emails back on ("Changed your mind?"). Mail clients unsubscribe without this page (RFC 8058 one-click POST).
 */
export function UnsubscribePage() {
  const [token] = useState(() => new URLSearchParams(window.location.search).get('token') ?? '')
  const [stage, setStage] = useState<Stage>(
    UNSUBSCRIBE_TOKEN_PATTERN.test(token)
      ? { kind: 'ready' }
      : { kind: 'failed', message: UNSUBSCRIBE_INVALID_MESSAGE, retry: null },
  )

  async function send(action: 'unsubscribe' | 'resubscribe') {
    setStage({ kind: 'sending', action })
    try {
      const body: UnsubscribeBody = { token, action }
      const response = await callFunction<UnsubscribeAnswer>('unsubscribe', body)
      const answer = response.body
      if (response.ok && answer && 'status' in answer)
        setStage({ kind: 'done', status: answer.status, message: answer.message })
      else
        setStage({
          kind: 'failed',
          message: answer && 'error' in answer ? answer.error : `Something went wrong (error ${response.status}).`,
          retry: response.status >= 500 ? action : null,
        })
    } catch (error) {
      console.error('Unsubscribe failed', error)
      setStage({
        kind: 'failed',
        message: 'Could not reach the server. Check your connection and try again.',
        retry: action,
      })
    }
  }

  const sending = stage.kind === 'sending'
  return (
    <div className="mx-auto w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <h1 className="text-center text-2xl font-bold tracking-tight">Unsubscribe</h1>
      {(stage.kind === 'ready' || (sending && stage.action === 'unsubscribe')) && (
        <>
          <p className="mt-4 text-slate-700">
            Stop every email from AgentInsight to this address: the newsletter, agent reports and notices.
          </p>
          <button
            type="button"
            onClick={() => void send('unsubscribe')}
            disabled={sending}
            aria-busy={sending}
            className={buttonClass}
          >
            {sending ? 'Unsubscribing…' : 'Unsubscribe'}
          </button>
        </>
      )}
      {stage.kind === 'done' && (
        <div className="mt-6 text-center">
          <p role="status" className="font-semibold text-green-800">
            {stage.message}
          </p>
          {stage.status === 'unsubscribed' && (
            <>
              <p className="mt-4 text-sm text-slate-700">Changed your mind?</p>
              <button type="button" onClick={() => void send('resubscribe')} className={secondaryClass}>
                Turn emails back on
              </button>
            </>
          )}
        </div>
      )}
      {sending && stage.action === 'resubscribe' && (
        <p role="status" className="mt-6 text-center text-slate-700">
          Turning emails back on…
        </p>
      )}
      {stage.kind === 'failed' && (
        <div className="mt-6 text-center">
          <p role="alert" className="text-red-700">
            {stage.message}
          </p>
          {stage.retry && (
            <button type="button" onClick={() => void send(stage.retry!)} className={secondaryClass}>
              Try again
            </button>
          )}
        </div>
      )}
      <p className="mt-8 text-center text-sm">
        <a href="/privacy" className="text-brand-700 underline">
          Privacy policy
        </a>
        {' · '}
        <a href="/contact" className="text-brand-700 underline">
          Contact us
        </a>
      </p>
    </div>
  )
}
