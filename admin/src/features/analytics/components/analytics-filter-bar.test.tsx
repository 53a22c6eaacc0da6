import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'

import { renderRoute } from '@/test/render-route'
import { AnalyticsSearchParamsSchema } from '../api/analytics-period'
import { AnalyticsFilterBar } from './analytics-filter-bar'

function Bar() {
  return <AnalyticsFilterBar search={AnalyticsSearchParamsSchema.parse({})} pages={[]} sources={[]} />
}

describe('the analytics filter form', () => {
  it('names a broken field and leaves the URL alone', async () => {
    const { user, router } = await renderRoute(Bar, '/analytics')
    await user.type(await screen.findByLabelText('Page'), 'blog')
    await user.click(screen.getByRole('button', { name: 'Apply filters' }))
    expect((await screen.findByRole('alert')).textContent).toBe('Page must be a path starting with /, e.g. /blog.')
    expect(screen.getByLabelText('Page').getAttribute('aria-invalid')).toBe('true')
    expect(router.state.location.search).toEqual({})
  })

  it('puts the trimmed filters into the URL', async () => {
    const { user, router } = await renderRoute(Bar, '/analytics')
    await user.type(await screen.findByLabelText('Page'), ' /blog/a ')
    await user.type(screen.getByLabelText('Source'), 'google.com')
    await user.type(screen.getByLabelText('Exclude path'), '/admin')
    await user.click(screen.getByRole('button', { name: 'Apply filters' }))
    expect(screen.queryByRole('alert')).toBeNull()
    expect(router.state.location.search).toEqual({ page: '/blog/a', source: 'google.com', exclude: '/admin' })
  })
})
