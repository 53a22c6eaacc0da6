/**
 * Set-up of the admin's component tests (Vitest project `components`, jsdom): Testing Library's cleanup after each
 * test, media queries for a 1280 px window, and a fake Supabase API behind `fetch`. The admin's supabase-js client is
 * created when `@/lib/supabase` is first imported and keeps the `fetch` it found then, so this file (which runs before
 * any test file imports the app) puts in a `fetch` that hands every request to the handler a test installed with
 * `answerApi`.
 */
import { cleanup } from '@testing-library/react'
import { afterEach } from 'vitest'

import { resetApi, routeApiRequest } from './fake-api'

globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => routeApiRequest(new Request(input, init))

// jsdom has no layout: media queries answer for a 1280 px wide window (set window.innerWidth to try another width)
window.innerWidth = 1280
window.scrollTo = () => {}
window.matchMedia = (query: string) => {
  const width = (name: string) => Number(new RegExp(`${name}:\\s*(\\d+)px`).exec(query)?.[1] ?? NaN)
  const min = width('min-width')
  const max = width('max-width')
  const matches = (Number.isNaN(min) || window.innerWidth >= min) && (Number.isNaN(max) || window.innerWidth <= max)
  return {
    matches,
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }
}

afterEach(() => {
  cleanup()
  resetApi()
})
