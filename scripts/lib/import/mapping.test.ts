import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { MappingError, MappingSchema, readMapping, skipReason, validateMappingAgainstHeader } from './mapping.ts'

const redfin = readMapping(path.resolve(import.meta.dirname, '../../../supabase/data/mappings/redfin-sold.json'))

describe('skip rules', () => {
  it('the shipped Redfin mapping skips public-record rows (ISO date, no sale price) and nothing else', () => {
    const mls = { date_sold: '1598397300000', price: '579900', original_price: '645000' }
    expect(skipReason({ ...mls, date_sold: '2020-08-14', original_price: '' }, redfin)).toBe(
      'public-record row: no sale price',
    )
    expect(skipReason(mls, redfin)).toBeUndefined()
    // an MLS row that lost its sale price is an error to reject, not a row to leave out
    expect(skipReason({ ...mls, original_price: ' ' }, redfin)).toBeUndefined()
  })

  it('tests blank, equals and matches; the first rule whose conditions all hold names the reason', () => {
    const mapping = MappingSchema.parse({
      source: 'feed',
      fields: { ListingKey: { column: 'id' } },
      skip: [
        { reason: 'rental', when: [{ column: 'type', equals: 'lease' }] },
        { reason: 'no id', when: [{ column: 'id', blank: true }] },
        { reason: 'test row', when: [{ column: 'id', matches: '^TEST-' }] },
      ],
    })
    expect(skipReason({ id: 'A', type: ' lease ' }, mapping)).toBe('rental')
    expect(skipReason({ type: 'sale' }, mapping)).toBe('no id')
    expect(skipReason({ id: null, type: 'sale' }, mapping)).toBe('no id')
    expect(skipReason({ id: 'TEST-1', type: 'sale' }, mapping)).toBe('test row')
    expect(skipReason({ id: 'A-1', type: 'sale' }, mapping)).toBeUndefined()
  })

  it('refuses a rule without a reason or condition, and a pattern that is not a regular expression', () => {
    const parse = (skip: unknown) =>
      MappingSchema.safeParse({ source: 'feed', fields: {}, skip }).error?.issues.map((issue) => issue.message)
    expect(parse([{ reason: ' ', when: [{ column: 'a', blank: true }] }])).toEqual(['a skip rule needs a reason'])
    expect(parse([{ reason: 'x', when: [] }])).toEqual(['a skip rule needs at least one condition'])
    expect(parse([{ reason: 'x', when: [{ column: 'a', matches: '(' }] }])).toContain(
      'must be a valid regular expression',
    )
  })

  it('a skip rule naming a column the header lacks stops the run like a mapped field does', () => {
    expect(() => validateMappingAgainstHeader(redfin, ['url', 'price', 'date_sold'], 'the header of x.csv')).toThrow(
      MappingError,
    )
    try {
      validateMappingAgainstHeader(
        { ...redfin, fields: {} },
        ['url', 'price', 'date_sold', 'orig_price'],
        'the header of x.csv',
      )
    } catch (error) {
      expect((error as Error).message).toBe(
        'The mapping does not match the header of x.csv; nothing was imported:\n' +
          '  skip rule "public-record row: no sale price": column "original_price" is not in the header; closest header names: "orig_price", "price", "url"',
      )
    }
    expect.assertions(2)
  })
})
