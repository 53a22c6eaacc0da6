import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'

import { TotpCodeField, totpCodeError, useTotpCodeForm } from './totp-code-field'

/** A code form as the sign-in step, the enrollment and Settings build it, with the verify answer given. */
function CodeForm({ onCode, verifyError = null }: { onCode: (code: string) => void; verifyError?: Error | null }) {
  const { form, onSubmit } = useTotpCodeForm(onCode)
  const message = totpCodeError(form, verifyError)
  return (
    <form onSubmit={onSubmit} noValidate>
      {message && <p role="alert">{message}</p>}
      <TotpCodeField form={form} id="code" label="Authentication code" />
      <button type="submit">Verify</button>
    </form>
  )
}

describe('the authenticator code form', () => {
  it('names a code that is not six digits and sends nothing', async () => {
    const onCode = vi.fn()
    const user = userEvent.setup()
    render(<CodeForm onCode={onCode} />)
    await user.type(screen.getByLabelText('Authentication code'), '12 34')
    await user.click(screen.getByRole('button', { name: 'Verify' }))
    expect((await screen.findByRole('alert')).textContent).toBe('Enter the 6-digit code from your authenticator app.')
    expect(screen.getByLabelText('Authentication code').getAttribute('aria-invalid')).toBe('true')
    expect(onCode).not.toHaveBeenCalled()
  })

  it('sends the code without the space an app prints in it', async () => {
    const onCode = vi.fn()
    const user = userEvent.setup()
    render(<CodeForm onCode={onCode} />)
    await user.type(screen.getByLabelText('Authentication code'), '123 456')
    await user.click(screen.getByRole('button', { name: 'Verify' }))
    await vi.waitFor(() => expect(onCode).toHaveBeenCalledWith('123456'))
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it("turns GoTrue's wrong-code answer into words an admin can act on, and passes other answers on", () => {
    const { rerender } = render(<CodeForm onCode={vi.fn()} verifyError={new Error('Invalid TOTP code entered')} />)
    expect(screen.getByRole('alert').textContent).toBe(
      'That code is not valid. Check your authenticator app and try again.',
    )
    rerender(<CodeForm onCode={vi.fn()} verifyError={new Error('Factor not found')} />)
    expect(screen.getByRole('alert').textContent).toBe('Factor not found')
  })
})
