import { describe, expect, it } from 'vitest'
import { parseMetadata, retryAfterMs } from './reso-client.ts'
import { fieldsRead, firstPageUrl, keyFilters, planQuery, recordKey } from './reso-web-api.ts'

const metadata = `<?xml version="1.0" encoding="UTF-8"?>
<edmx:Edmx xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx" Version="4.0"><edmx:DataServices>
  <Schema xmlns="http://docs.oasis-open.org/odata/ns/edm" Namespace="org.reso.metadata">
    <EntityType Name="Property"><Key><PropertyRef Name="ListingKey"/></Key>
      <Property Name="ListingKey" Type="Edm.String"/><Property Name="ListPrice" Type="Edm.Decimal"/>
      <Property Name="ModificationTimestamp" Type="Edm.DateTimeOffset"/><Property Name="PublicRemarks" Type="Edm.String"/>
      <NavigationProperty Name="ListAgent" Type="org.reso.metadata.Member"/>
      <NavigationProperty Name="ListOffice" Type="org.reso.metadata.Office"/>
      <NavigationProperty Name="Media" Type="Collection(org.reso.metadata.Media)"/>
    </EntityType>
    <EntityType Name="Member"><Key><PropertyRef Name="MemberKey"/></Key>
      <Property Name="MemberKey" Type="Edm.String"/><Property Name="MemberFullName" Type="Edm.String"/>
    </EntityType>
  </Schema>
</edmx:DataServices></edmx:Edmx>`

describe('query planning', () => {
  it('selects the fields we read that the server has and expands agent navigation properties to Member', () => {
    const types = parseMetadata(metadata)
    expect(planQuery(types, 'Property', true)).toEqual({
      select: ['ListingKey', 'ListPrice', 'ModificationTimestamp'],
      expand: [{ navigation: 'ListAgent', select: ['MemberKey', 'MemberFullName'] }],
    })
    expect(planQuery(types, 'Property', false).expand).toEqual([])
    expect(planQuery(null, 'Property', true)).toEqual({ select: null, expand: [] })
    expect(fieldsRead.Member).toContain('ModificationTimestamp')
  })

  it('pages by Prefer, so the first URL has $filter ge, $orderby, $select and $expand and no $top', () => {
    const url = new URL(
      firstPageUrl('https://mls.example.com/odata/', 'Property', '2025-01-01T00:00:00Z', {
        select: ['ListingKey', 'ModificationTimestamp'],
        expand: [{ navigation: 'ListAgent', select: ['MemberKey'] }],
      }),
    )
    expect(url.pathname).toBe('/odata/Property')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      $filter: 'ModificationTimestamp ge 2025-01-01T00:00:00.000Z',
      $orderby: 'ModificationTimestamp asc',
      $select: 'ListingKey,ModificationTimestamp',
      $expand: 'ListAgent($select=MemberKey)',
    })
  })

  it('asks for kept keys in chunks, quoting OData strings', () => {
    expect(keyFilters('Property', ["O'Hara-1", 'B'])).toEqual(["ListingKey eq 'O''Hara-1' or ListingKey eq 'B'"])
    expect(keyFilters('Member', ['MK1', 'MemberMlsId:77'])).toEqual(["MemberKey eq 'MK1' or MemberMlsId eq '77'"])
    expect(
      keyFilters(
        'Property',
        Array.from({ length: 90 }, (_, i) => `K${i}`),
      ),
    ).toHaveLength(3)
    expect(recordKey('Member', { MemberMlsId: 77 })).toBe('MemberMlsId:77')
    expect(recordKey('Property', { ListingKey: ' ' })).toBeNull()
  })

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('7')).toBe(7000)
    expect(retryAfterMs('Thu, 01 Jan 2026 00:01:00 GMT', Date.parse('2026-01-01T00:00:00Z'))).toBe(60_000)
    expect(retryAfterMs('soon')).toBeUndefined()
    expect(retryAfterMs(null)).toBeUndefined()
  })
})
