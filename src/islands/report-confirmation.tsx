import { useState } from 'react'

import {
  LINK_INVALID_MESSAGE,
  type ReportConfirmationAnswer,
  type ReportConfirmationBody,
} from '@shared/report-request-contract.ts'
import { callFunction } from '../lib/functions-client'

type Stage =
  | { kind: 'ready' }
  | { kind: 'sending' }
  | { kind: 'done'; message: string }
  | { kind: 'failed'; message: string; retry: boolean }

/**
 * /report/confirm?token=…: the page a report request's confirmation email links to. Opening the link confirms
 * nothing by itself (mail scanners open links too): the visitor presses "Send my report", which posts the token to
 * confirm-report, and the agent report is mailed to the confirmed address.
 */
export function ReportConfirmation() {
  // rendered in the browser only (client:only), so the link's token decides the first screen
  const [token] = useState(() => new URLSearchParams(window.location.search).get('token') ?? '')
  const [stage, setStage] = useState<Stage>(
    /^[0-9a-f]{64}$/.test(token) ? { kind: 'ready' } : { kind: 'failed', message: LINK_INVALID_MESSAGE, retry: false },
  )

  async function confirm() {
    setStage({ kind: 'sending' })
    try {
      const body: ReportConfirmationBody = { token }
      const response = await callFunction<ReportConfirmationAnswer>('confirm-report', body)
      const answer = response.body
      if (response.ok && answer && 'status' in answer) {
        // the token is used: a reload shows the same answer from the function, not a second mail
        setStage({ kind: 'done', message: answer.message })
      } else {
        setStage({
          kind: 'failed',
          message:
            answer && 'error' in answer
              ? answer.error
              : `Could not confirm (error ${response.status}). Please try again.`,
          retry: response.status >= 500 || response.status === 429,
        })
      }
    } catch (error) {
      console.error('Report confirmation failed', error)
      setStage({
        kind: 'failed',
        message: 'Could not reach the server. Check your connection and try again.',
        retry: true,
      })
    }
  }

  return (
    <div className="mx-auto w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <h1 className="text-center text-2xl font-bold tracking-tight">Confirm your email</h1>
      {(stage.kind === 'ready' || stage.kind === 'sending') && (
        <>
          <p className="mt-4 text-slate-700">
            You asked for an agent performance report. Confirm that this email address is yours and we will send the
            report to it.
          </p>
          <button
            type="button"
            onClick={() => void confirm()}
            disabled={stage.kind === 'sending'}
            className="mt-6 w-full rounded-md bg-blue-700 px-4 py-2 font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:opacity-60"
          >
            {stage.kind === 'sending' ? 'Sending…' : 'Send my report'}
          </button>
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
              className="mt-4 rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700"
            >
              Try again
            </button>
          )}
        </div>
      )}
      <p className="mt-8 text-center text-sm">
        <a href="/" className="text-blue-700 underline">
          Back to AgentInsight
        </a>
      </p>
    </div>
  )
}
