import { describe, expect, it } from 'vitest'
import { flattenBooleans } from './declarative-schema.ts'

describe('flattenBooleans', () => {
  it('makes a deparsed BETWEEN and its re-parsed form one spelling', () => {
    const migrated =
      "CHECK ((((char_length(full_name) >= 1) AND (char_length(full_name) <= 200)) AND (btrim(full_name) <> ''::text)))"
    const reparsed =
      "CHECK (((char_length(full_name) >= 1) AND (char_length(full_name) <= 200) AND (btrim(full_name) <> ''::text)))"
    expect(flattenBooleans(migrated)).toBe(reparsed)
    expect(flattenBooleans(reparsed)).toBe(reparsed)
  })

  it('keeps AND inside OR (and parentheses inside quotes) as they are', () => {
    const mixed = "((a = 1) OR ((b = 2) AND (c = ')(')))"
    expect(flattenBooleans(mixed)).toBe(mixed)
    expect(flattenBooleans('(((a) OR (b)) OR (c))')).toBe('((a) OR (b) OR (c))')
  })
})
