import { describe, expect, it } from 'vitest'

import { correctionMarkerText, visibleContact } from '../islands/agent-claim-parts'
import type { SaleCorrection } from './agent-profile'
import { correctSaleUrl } from './sale-corrections'

const correction = (overrides: Partial<SaleCorrection>): SaleCorrection => ({
  correction_id: 'c1',
  property_id: 'p1',
  kind: 'not_my_sale',
  address: '1 Elm St',
  listing_number: 'MLS-1',
  side: null,
  close_price: null,
  close_date: null,
  recorded_close_price: 500000,
  recorded_close_date: '2026-10-01',
  accepted_at: '2026-11-20T10:00:00Z',
  list_price: null,
  recorded_list_price: 480000,
  ...overrides,
})

describe('the claim parts of a sale row', () => {
  it('marks each accepted kind in words, with the corrected values', () => {
    expect(correctionMarkerText(correction({}))).toBe('Removed: not this agent’s sale')
    expect(correctionMarkerText(correction({ kind: 'wrong_side', side: 'buyer' }))).toBe('Side corrected: buyer side')
    expect(correctionMarkerText(correction({ kind: 'wrong_price_date', close_price: 610000, close_date: null }))).toBe(
      'Price or date corrected: $610,000',
    )
    expect(
      correctionMarkerText(
        correction({ kind: 'wrong_price_date', close_price: null, close_date: '2026-10-03', list_price: 600000 }),
      ),
    ).toBe('Price or date corrected: Oct 3, 2026, list $600,000')
    expect(correctionMarkerText(correction({ kind: 'missing_sale' }))).toBe('Added by correction')
  })

  it('links the owner to the corrections form filled in with the sale', () => {
    expect(correctSaleUrl({ property_id: '6c1f7a8e-0b7e-4f55-9a55-4f9fb6c1e0a1', source_record_id: 'ML 81/2' })).toBe(
      '/account/agent?kind=not_my_sale&property=6c1f7a8e-0b7e-4f55-9a55-4f9fb6c1e0a1&sale=ML+81%2F2#corrections',
    )
    expect(correctSaleUrl({ property_id: 'p', source_record_id: null })).toBe(
      '/account/agent?kind=not_my_sale&property=p#corrections',
    )
  })

  it('leaves out the contact details the agent asked to hide', () => {
    const agent = { phone: '(617) 555-0101', email: 'a@example.com', hide_phone: true, hide_email: false }
    expect(visibleContact(agent)).toEqual({ phone: null, email: 'a@example.com' })
    expect(visibleContact({ ...agent, hide_phone: false, hide_email: true })).toEqual({
      phone: '(617) 555-0101',
      email: null,
    })
  })
})
