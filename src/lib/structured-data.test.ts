import { describe, expect, it } from 'vitest'

import { schemaOrgErrors } from '../../tests/support/schema-org.ts'
import type { AgentProfile, AgentRow } from './agent-profile'
import { agentJsonLd } from './structured-data'

/** An agent with every field the JSON-LD uses (the rest of the row does not reach it). */
const agent = {
  id: '5b0c2d8e-4c1f-4a57-9a43-3f1f2c7a9e01',
  name: 'Jordan Rivera',
  brokerage: 'Rivera Realty',
  primary_zip_code: '78704',
  zip_code: '78704',
  city: 'Austin',
  state: 'TX',
  service_areas: ['78704', '78745'],
  phone: '(512) 555-0101',
  email: 'jordan@example.com',
  photo_url: 'https://example.com/jordan.jpg',
  rating: 4.7,
  review_count: 31,
} as unknown as AgentRow

const profile: AgentProfile = { agent, figures: null, sales: [], benchmark: null, synthetic: false, quarters: [] }
// the JSON-LD as crawlers read it: plain JSON
const jsonLd = JSON.parse(
  JSON.stringify(agentJsonLd(profile, 'https://agent-insight.example/agent/5b0c2d8e-4c1f-4a57-9a43-3f1f2c7a9e01')),
) as Record<string, unknown>

describe('agent JSON-LD against the schema.org vocabulary', () => {
  it('uses only schema.org classes, and properties that apply to them with values in their ranges', () => {
    // every branch is present: brokerage, areas (Place + text), address, contact, photo, rating
    expect(Object.keys(jsonLd).sort()).toEqual(
      [
        '@context',
        '@id',
        '@type',
        'address',
        'aggregateRating',
        'areaServed',
        'email',
        'image',
        'name',
        'parentOrganization',
        'telephone',
        'url',
      ].sort(),
    )
    expect(schemaOrgErrors(jsonLd)).toEqual([])
  })

  it('still validates without the optional parts (demo agent: no rating; no brokerage, ZIP or contact)', () => {
    const bare = {
      ...agent,
      brokerage: null,
      primary_zip_code: null,
      zip_code: null,
      city: null,
      state: null,
      service_areas: [],
      phone: null,
      email: null,
      photo_url: null,
    }
    expect(
      schemaOrgErrors(
        agentJsonLd(
          { ...profile, agent: bare as unknown as AgentRow, synthetic: true },
          'https://agent-insight.example/agent/x',
        ),
      ),
    ).toEqual([])
  })

  it('names a misspelt property, a property of another type, an unknown class and a value outside the range', () => {
    expect(schemaOrgErrors({ ...jsonLd, telephon: '(512) 555-0101' })).toEqual([
      '$.telephon: telephon is not a schema.org property',
    ])
    expect(schemaOrgErrors({ ...jsonLd, ratingValue: 4.7 })).toEqual([
      '$.ratingValue: ratingValue does not apply to RealEstateAgent (domain: Rating)',
    ])
    expect(schemaOrgErrors({ ...jsonLd, '@type': 'RealEstateAgnet' })).toEqual([
      '$: @type RealEstateAgnet is not a schema.org class',
    ])
    expect(schemaOrgErrors({ ...jsonLd, parentOrganization: { '@type': 'Place', name: 'Rivera Realty' } })).toEqual([
      '$.parentOrganization: a Place is not in the range of parentOrganization (Organization)',
    ])
    expect(
      schemaOrgErrors({
        ...jsonLd,
        aggregateRating: { '@type': 'AggregateRating', ratingValue: 4.7, reviewCount: 'many', bestRatin: 5 },
      }),
    ).toEqual([
      '$.aggregateRating.reviewCount: a string is not in the range of reviewCount (Integer)',
      '$.aggregateRating.bestRatin: bestRatin is not a schema.org property',
    ])
  })
})
