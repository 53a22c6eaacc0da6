import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'

import { answerApi, apiRequests } from '@/test/fake-api'
import { renderRoute } from '@/test/render-route'
import { AuthLoginForm } from './auth-login-form'

const signInCalls = () => apiRequests().filter((request) => request.path === '/auth/v1/token')

describe('the admin sign-in form', () => {
  it('names a bad email or a missing password without asking the auth service', async () => {
    const { user } = await renderRoute(() => <AuthLoginForm />, '/')
    await user.type(await screen.findByLabelText('Email'), 'not-an-email')
    await user.click(screen.getByRole('button', { name: 'Access Admin Dashboard' }))
    expect((await screen.findByRole('alert')).textContent).toBe('Enter a valid email address.')
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true')

    await user.clear(screen.getByLabelText('Email'))
    await user.type(screen.getByLabelText('Email'), 'admin@example.com')
    await user.click(screen.getByRole('button', { name: 'Access Admin Dashboard' }))
    expect((await screen.findByRole('alert')).textContent).toBe('Enter your password.')
    expect(signInCalls()).toEqual([])
  })

  it('turns "Invalid login credentials" into words an admin can act on', async () => {
    answerApi('POST', '/auth/v1/token', () =>
      Response.json(
        { code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials' },
        { status: 400 },
      ),
    )
    const { user } = await renderRoute(() => <AuthLoginForm />, '/')
    await user.type(await screen.findByLabelText('Email'), 'admin@example.com')
    await user.type(screen.getByLabelText('Password'), 'wrong password')
    await user.click(screen.getByRole('button', { name: 'Access Admin Dashboard' }))
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Invalid email or password. Please check your credentials and try again.',
    )
    expect(signInCalls().map((call) => call.body)).toEqual([
      { email: 'admin@example.com', password: 'wrong password', gotrue_meta_security: {} },
    ])
  })
})
