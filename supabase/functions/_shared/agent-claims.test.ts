import { describe, expect, it } from 'vitest'
import {
  AgentProfileEditSchema,
  agentPhotoProblem,
  claimedLine,
  correctionsLine,
  CorrectionRequestSchema,
  imageTypeOf,
  ReviewDecisionSchema,
  splitList,
} from './agent-claims.ts'

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : result.error!.issues[0]!.message

describe('profile edits', () => {
  it('splits a list field by lines and commas, dropping blanks and repeats (case ignored)', () => {
    expect(splitList('First-time buyers\nCondos,  first-time BUYERS ,\n\n Luxury   homes')).toEqual([
      'First-time buyers',
      'Condos',
      'Luxury homes',
    ])
  })

  it('limits the bio and each list, naming the rule', () => {
    expect(
      firstMessage(AgentProfileEditSchema.safeParse({ bio: 'x'.repeat(2001), specialties: [], languages: [] })),
    ).toBe('Keep the bio to 2,000 characters')
    expect(
      firstMessage(AgentProfileEditSchema.safeParse({ bio: '', specialties: ['x'.repeat(61)], languages: [] })),
    ).toBe('Keep each specialty to 60 characters')
    expect(
      firstMessage(
        AgentProfileEditSchema.safeParse({
          bio: '',
          specialties: [],
          languages: Array.from({ length: 11 }, (_, i) => `L${i}`),
        }),
      ),
    ).toBe('List at most 10 languages')
    expect(AgentProfileEditSchema.parse({ bio: '  ', specialties: [], languages: [] }).bio).toBeNull()
  })
})

describe('photos', () => {
  it('recognises images by their first bytes, whatever the declared type', () => {
    expect(imageTypeOf(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg')
    expect(imageTypeOf(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('image/png')
    expect(imageTypeOf(new TextEncoder().encode('GIF89a...'))).toBe('image/gif')
    expect(imageTypeOf(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp')
    expect(imageTypeOf(new TextEncoder().encode('\0\0\0\x1cftypavif'))).toBe('image/avif')
    expect(imageTypeOf(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull()
    expect(imageTypeOf(new Uint8Array([0xff, 0xd8]))).toBeNull()
  })

  it('refuses other types and files over 5 MB before uploading', () => {
    expect(agentPhotoProblem({ size: 10, type: 'image/svg+xml' })).toBe(
      'The photo must be a JPEG, PNG, WebP, AVIF or GIF image.',
    )
    expect(agentPhotoProblem({ size: 5 * 1024 * 1024 + 1, type: 'image/png' })).toBe('The photo must be at most 5 MB.')
    expect(agentPhotoProblem({ size: 5 * 1024 * 1024, type: 'image/png' })).toBeNull()
  })
})

describe('corrections', () => {
  it("checks each kind's fields, naming the missing one", () => {
    expect(firstMessage(CorrectionRequestSchema.safeParse({ kind: 'not_my_sale' }))).toBe(
      'Enter the MLS number of the sale',
    )
    expect(CorrectionRequestSchema.safeParse({ kind: 'not_my_sale', listing_number: 'MLS-1' }).success).toBe(true)
    expect(firstMessage(CorrectionRequestSchema.safeParse({ kind: 'wrong_side', listing_number: 'MLS-1' }))).toBe(
      'Pick the side you had',
    )
    expect(firstMessage(CorrectionRequestSchema.safeParse({ kind: 'wrong_price_date', listing_number: 'MLS-1' }))).toBe(
      'Give the right close price, close date or list price',
    )
    expect(
      CorrectionRequestSchema.safeParse({ kind: 'wrong_price_date', listing_number: 'MLS-1', list_price: 505000 })
        .success,
    ).toBe(true)
    expect(
      firstMessage(CorrectionRequestSchema.safeParse({ kind: 'missing_sale', listing_number: 'MLS-1', side: 'buyer' })),
    ).toBe('Enter the address of the sale')
    expect(firstMessage(CorrectionRequestSchema.safeParse({ kind: 'made_up' }))).toBe('Pick what is wrong')
    expect(
      firstMessage(CorrectionRequestSchema.safeParse({ kind: 'not_my_sale', listing_number: 'MLS-1', agent_id: 'x' })),
    ).not.toBeNull()
  })
})

describe('review decisions', () => {
  it('requires a reason to reject or revoke and fits the decision to the subject', () => {
    const id = '6c1f7a8e-0b7e-4f55-9a55-4f9fb6c1e0a1'
    expect(ReviewDecisionSchema.safeParse({ subject: 'claim', id, decision: 'approve' }).success).toBe(true)
    expect(firstMessage(ReviewDecisionSchema.safeParse({ subject: 'claim', id, decision: 'revoke' }))).toBe(
      'Give a reason: it is mailed to the agent',
    )
    expect(firstMessage(ReviewDecisionSchema.safeParse({ subject: 'correction', id, decision: 'approve' }))).toBe(
      'A claim is approved, rejected or revoked; a request or correction is accepted or rejected',
    )
    expect(firstMessage(ReviewDecisionSchema.safeParse({ subject: 'visibility', id: 'x', decision: 'accept' }))).toBe(
      'id must be an id',
    )
  })
})

describe('what the profile says', () => {
  it('dates the claim by its UTC day', () => {
    expect(claimedLine('2026-11-28T23:30:00-05:00')).toBe('Claimed by the agent on Nov 29, 2026')
    expect(claimedLine(null)).toBeNull()
    expect(claimedLine('not a date')).toBeNull()
  })

  it('counts corrections, and says nothing without any', () => {
    expect(correctionsLine(1, 0)).toBe('1 correction accepted, 0 pending')
    expect(correctionsLine(2, 3)).toBe('2 corrections accepted, 3 pending')
    expect(correctionsLine(0, 0)).toBeNull()
  })
})
