import * as Dialog from '@radix-ui/react-dialog'
import { useId, useState, type SubmitEvent } from 'react'

import {
  CONFIRMATION_HOURS,
  HONEYPOT_FIELD,
  type ReportDeliveryStep,
  type ReportRequestAnswer,
  type ReportRequestBody,
} from '@shared/report-request-contract.ts'
import { signedInAccessToken } from '../lib/account-session'
import { storedAccount } from '../lib/agent-lists'
import { REPORT_PRIVACY_LINE } from '../lib/privacy-notice'
import { callFunction } from '../lib/functions-client'
import { checkReportRequestForm, type ReportRequestFormValues as ReportRequestForm } from '@shared/report-request.ts'
import { captureUtm, visitStorage } from '@shared/lead-source.ts'

interface Props {
  agentId: string
  agentName: string
  /** "Cambridge, MA"; copied onto the lead so it reads correctly even if the agent row changes. */
  agentLocation: string | null
  /** Open on mount: the profile loads this module on the first click of its placeholder button. */
  initiallyOpen?: boolean
}

const EMPTY: ReportRequestForm = { full_name: '', email: '', phone: '', property_address: '' }

/** The form's first values: the signed-in visitor's name and email from their stored session, else empty. */
function initialValues(): ReportRequestForm {
  const account = typeof window === 'undefined' ? null : storedAccount()
  return account ? { ...EMPTY, full_name: account.fullName, email: account.email } : EMPTY
}

type Status = { kind: 'editing' } | { kind: 'sending' } | { kind: 'sent'; delivery: ReportDeliveryStep }

/**
 * "Get Report": a button that opens a dialog form (full name, email, optional phone and property address; the agent
 * travels hidden) and POSTs it to the request-report function. Field errors from the form check or from the function
 * appear under their fields; a refusal (rate limit, outage) appears above the button. Typed values are kept through
 * every failure and cleared only after success, which says what happens next (a confirmation link in the inbox, or
 * the report itself for a signed-in visitor with that confirmed email) and links the sample report.
 */
export function ReportRequestDialog({ agentId, agentName, agentLocation, initiallyOpen = false }: Props) {
  const id = useId()
  const [open, setOpen] = useState(initiallyOpen)
  const [values, setValues] = useState<ReportRequestForm>(initialValues)
  // the honeypot: people never see or fill it, so anything in it came from a bot
  const [website, setWebsite] = useState('')
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({})
  const [formError, setFormError] = useState<string | null>(null)
  const [status, setStatus] = useState<Status>({ kind: 'editing' })

  function onOpenChange(next: boolean) {
    setOpen(next)
    // a finished request starts over next time; an unfinished one keeps what was typed
    if (!next && status.kind === 'sent') {
      setValues(initialValues())
      setStatus({ kind: 'editing' })
    }
  }

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault()
    const checked = checkReportRequestForm(values)
    if ('errors' in checked) {
      setErrors(checked.errors)
      setFormError(null)
      focusFirstInvalid(event.currentTarget)
      return
    }
    setErrors({})
    setFormError(null)
    setStatus({ kind: 'sending' })
    const form = event.currentTarget
    try {
      const body: ReportRequestBody = {
        ...checked.data,
        agent_id: agentId,
        agent_name: agentName,
        agent_location: agentLocation,
        [HONEYPOT_FIELD]: website,
        // the lead's source: this page and the UTM parameters the visit landed with (kept in sessionStorage)
        source_page: location.pathname,
        ...captureUtm(location.search, visitStorage()),
      }
      // signed in: the function mails the report at once when the account's confirmed email is this address
      const accessToken = (await signedInAccessToken()) ?? undefined
      const response = await callFunction<ReportRequestAnswer>('request-report', body, undefined, accessToken)
      if (response.ok) {
        const answer = response.body
        setStatus({ kind: 'sent', delivery: answer && 'delivery' in answer ? answer.delivery : 'confirmation' })
        return
      }
      setStatus({ kind: 'editing' })
      const answer = response.body
      if (answer && 'errors' in answer && answer.errors) {
        setErrors(answer.errors)
        focusFirstInvalid(form)
      } else {
        setFormError(
          answer && 'error' in answer
            ? answer.error
            : `Could not send your request (error ${response.status}). Please try again.`,
        )
      }
    } catch (error) {
      console.error('Report request failed', error)
      setStatus({ kind: 'editing' })
      setFormError('Could not reach the server. Check your connection and try again.')
    }
  }

  const field = (
    name: keyof ReportRequestForm,
    label: string,
    options: { type?: string; autoComplete?: string; required?: boolean },
  ) => {
    const inputId = `${id}-${name}`
    const errorId = `${inputId}-error`
    const message = errors[name]
    return (
      <div>
        <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
          {label}
          {!options.required && <span className="font-normal text-slate-600"> (optional)</span>}
        </label>
        <input
          id={inputId}
          name={name}
          type={options.type ?? 'text'}
          autoComplete={options.autoComplete}
          required={options.required}
          value={values[name]}
          onChange={(event) => setValues((current) => ({ ...current, [name]: event.target.value }))}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? errorId : undefined}
          className="mt-1 block w-full rounded-md border border-slate-400 px-3 py-2 text-base text-slate-900 focus:border-blue-700 focus:outline-2 focus:outline-blue-700 aria-[invalid=true]:border-red-700"
        />
        {message && (
          <p id={errorId} className="mt-1 text-sm text-red-800">
            {message}
          </p>
        )}
      </div>
    )
  }

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger className="rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700">
        Get Report
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 max-h-[90vh] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-xl focus:outline-none">
          <Dialog.Title className="text-xl font-bold tracking-tight">Get the report on {agentName}</Dialog.Title>
          {status.kind === 'sent' ? (
            <div className="mt-4" role="status">
              <p className="font-semibold text-green-800">Thanks! Your report request has been received.</p>
              <p className="mt-2 text-slate-700">
                {status.delivery === 'report'
                  ? `The full performance report on ${agentName} is on its way to ${values.email.trim()}.`
                  : `We sent a confirmation link to ${values.email.trim()}. Open it within ${CONFIRMATION_HOURS} hours and we will email you the full performance report on ${agentName}.`}{' '}
                In the meantime,{' '}
                <a href="/sample-report" className="text-blue-700 underline">
                  see what a report contains
                </a>
                .
              </p>
              <Dialog.Close className="mt-6 rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700">
                Close
              </Dialog.Close>
            </div>
          ) : (
            <>
              <Dialog.Description className="mt-2 text-slate-700">
                A free, detailed performance report: every recent sale, pricing accuracy and how the agent compares
                locally.
              </Dialog.Description>
              <form onSubmit={onSubmit} noValidate className="mt-5 space-y-4">
                {field('full_name', 'Full name', { autoComplete: 'name', required: true })}
                {field('email', 'Email', { type: 'email', autoComplete: 'email', required: true })}
                {field('phone', 'Phone', { type: 'tel', autoComplete: 'tel' })}
                {field('property_address', 'Property address', { autoComplete: 'street-address' })}
                <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
                  <label htmlFor={`${id}-website`}>Website</label>
                  <input
                    id={`${id}-website`}
                    name={HONEYPOT_FIELD}
                    tabIndex={-1}
                    autoComplete="off"
                    value={website}
                    onChange={(event) => setWebsite(event.target.value)}
                  />
                </div>
                {formError && (
                  <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
                    {formError}
                  </p>
                )}
                <p className="text-sm text-slate-700">
                  {REPORT_PRIVACY_LINE}{' '}
                  <a href="/privacy" className="text-blue-700 underline">
                    Privacy policy
                  </a>
                </p>
                <div className="flex justify-end gap-2 pt-2">
                  <Dialog.Close className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700">
                    Cancel
                  </Dialog.Close>
                  <button
                    type="submit"
                    disabled={status.kind === 'sending'}
                    aria-busy={status.kind === 'sending'}
                    className="rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:cursor-wait disabled:opacity-70"
                  >
                    {status.kind === 'sending' ? 'Sending…' : 'Request Report'}
                  </button>
                </div>
              </form>
            </>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

function focusFirstInvalid(form: HTMLFormElement) {
  // after React has rendered the aria-invalid attributes
  window.requestAnimationFrame(() => form.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus())
}
