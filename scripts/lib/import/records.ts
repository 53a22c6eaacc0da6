/**
 * Validation of RESO Property and Member records (RESO Data Dictionary 2.0 names) into the rows the importer
 * writes. Every rule that rejects a row lives here, so the reject file and the tests name the same reasons.
 */
import { z } from 'zod'
import { blankToUndefined, cleanNumber, parseDate, parseStateCode, parseZip } from './values.ts'

export const standardStatuses = [
  'Active',
  'Active Under Contract',
  'Canceled',
  'Closed',
  'Coming Soon',
  'Delete',
  'Expired',
  'Hold',
  'Incomplete',
  'Pending',
  'Withdrawn',
] as const
export type StandardStatus = (typeof standardStatuses)[number]

/** RESO PropertyType lookup values (display form). */
export const propertyTypes = [
  'Business Opportunity',
  'Commercial Lease',
  'Commercial Sale',
  'Farm',
  'Land',
  'Manufactured In Park',
  'Residential',
  'Residential Income',
  'Residential Lease',
] as const

const enumKey = (value: string) => value.replace(/[\s_-]+/g, '').toLowerCase()
const statusByKey = new Map<string, StandardStatus>(standardStatuses.map((status) => [enumKey(status), status]))
const propertyTypeByKey = new Map<string, string>(propertyTypes.map((type) => [enumKey(type), type]))

/**
 * A RESO enumeration value in either form the Web API sends it: the lookup's display string ("Active Under Contract")
 * or the OData enum-type member name ("ActiveUnderContract"), optionally qualified
 * ("org.reso.metadata.enums.StandardStatus'Closed'"). Returns the display form, or undefined when it is neither.
 */
export function normalizeStandardStatus(value: unknown): StandardStatus | undefined {
  if (typeof value !== 'string') return undefined
  const bare = /^[\w.]+'([^']*)'$/.exec(value.trim())?.[1] ?? value
  return statusByKey.get(enumKey(bare))
}

/** PropertyType in display form when it is a RESO lookup value in either form; other text (a feed's own types) as is. */
export function normalizePropertyType(value: string): string {
  const bare = /^[\w.]+'([^']*)'$/.exec(value.trim())?.[1] ?? value
  return propertyTypeByKey.get(enumKey(bare)) ?? value
}

/**
 * Plausibility bounds: values outside them are data errors (a ClosePrice of 7 x 10^11, 42,687 days on market), and
 * the record is rejected naming the bound. The highest US home sale on record is below $250 million.
 */
export const plausible = {
  /** USD, ListPrice, OriginalListPrice, ClosePrice. */
  minPrice: 1_000,
  maxPrice: 500_000_000,
  /** Days. */
  maxDaysOnMarket: 3_650,
  /** Earliest CloseDate, ListingContractDate or OnMarketDate. */
  minDate: '1950-01-01',
  /** ClosePrice / ListPrice outside this range means one of the two prices is wrong. */
  minCloseToList: 0.2,
  maxCloseToList: 5,
} as const

const usd = (value: number) => `$${value.toLocaleString('en-US')}`

const key = (max: number) =>
  z.preprocess(
    (value) => {
      const blank = blankToUndefined(value)
      return typeof blank === 'number' ? String(blank) : blank
    },
    z.string('is required').min(1, 'is required').max(max, `longer than ${max} characters`),
  )
const text = (max: number) =>
  z.preprocess(blankToUndefined, z.coerce.string().max(max, `longer than ${max} characters`).optional())
const price = z.preprocess(
  cleanNumber,
  z
    .number('must be a number (USD)')
    .positive({ error: 'must be a positive number (USD)', abort: true })
    .min(plausible.minPrice, { error: `is below the plausible minimum of ${usd(plausible.minPrice)}`, abort: true })
    .max(plausible.maxPrice, { error: `is above the plausible maximum of ${usd(plausible.maxPrice)}`, abort: true })
    .optional(),
)
const daysOnMarket = z.preprocess(
  cleanNumber,
  z
    .number('must be a number')
    .int('must be a whole number')
    .min(0, 'must not be negative')
    .max(
      plausible.maxDaysOnMarket,
      `is above the plausible maximum of ${plausible.maxDaysOnMarket.toLocaleString('en-US')} days`,
    )
    .optional(),
)
const count = z.preprocess(
  cleanNumber,
  z.number('must be a number').int('must be a whole number').min(0, 'must not be negative').optional(),
)
const decimal = z.preprocess(cleanNumber, z.number('must be a number').min(0, 'must not be negative').optional())
const date = z.preprocess(
  (value) => {
    const blank = blankToUndefined(value)
    return blank === undefined ? undefined : (parseDate(blank) ?? blank)
  },
  z.iso
    .date('must be a date (YYYY-MM-DD)')
    .refine((value) => value >= plausible.minDate, `is before ${plausible.minDate}, not a plausible date`)
    .optional(),
)
const timestamp = z.preprocess(
  blankToUndefined,
  z.iso.datetime({ offset: true, error: 'must be an ISO 8601 timestamp' }).optional(),
)
const zip = z.preprocess(
  (value) => {
    const blank = blankToUndefined(value)
    return blank === undefined ? undefined : (parseZip(blank) ?? `invalid:${String(blank)}`)
  },
  z
    .string()
    .regex(/^\d{5}$/, 'unknown ZIP format (expected 12345 or 12345-6789)')
    .optional(),
)
const state = z.preprocess(
  (value) => {
    const blank = blankToUndefined(value)
    return blank === undefined ? undefined : (parseStateCode(blank) ?? `invalid:${String(blank)}`)
  },
  z
    .string()
    .regex(/^[A-Z]{2}$/, 'must be a two-letter state code')
    .optional(),
)
const coordinate = (limit: number) =>
  z.preprocess(
    cleanNumber,
    z.number('must be a number').min(-limit, 'out of range').max(limit, 'out of range').optional(),
  )

/** A RESO Property record as it arrives (after --map). Unknown fields are ignored. */
export const PropertyRecordSchema = z
  .object({
    ListingKey: key(500),
    ListingId: text(100),
    StandardStatus: z.preprocess((value) => {
      const blank = blankToUndefined(value)
      return blank === undefined ? undefined : (normalizeStandardStatus(blank) ?? blank)
    }, z.enum(standardStatuses, 'must be a RESO StandardStatus (Active, Pending, Closed, Canceled, Expired, Withdrawn, ...)').optional()),
    ListPrice: price,
    OriginalListPrice: price,
    ClosePrice: price,
    CloseDate: date,
    ListingContractDate: date,
    OnMarketDate: date,
    DaysOnMarket: daysOnMarket,
    ListAgentKey: text(255),
    ListAgentMlsId: text(100),
    ListAgentFullName: text(200),
    CoListAgentKey: text(255),
    CoListAgentMlsId: text(100),
    CoListAgentFullName: text(200),
    BuyerAgentKey: text(255),
    BuyerAgentMlsId: text(100),
    BuyerAgentFullName: text(200),
    CoBuyerAgentKey: text(255),
    CoBuyerAgentMlsId: text(100),
    CoBuyerAgentFullName: text(200),
    ListOfficeKey: text(255),
    ListOfficeMlsId: text(100),
    ListOfficeName: text(300),
    CoListOfficeKey: text(255),
    CoListOfficeMlsId: text(100),
    CoListOfficeName: text(300),
    BuyerOfficeKey: text(255),
    BuyerOfficeMlsId: text(100),
    BuyerOfficeName: text(300),
    CoBuyerOfficeKey: text(255),
    CoBuyerOfficeMlsId: text(100),
    CoBuyerOfficeName: text(300),
    UnparsedAddress: text(300),
    StreetNumber: text(50),
    StreetName: text(200),
    UnitNumber: text(50),
    City: text(100),
    StateOrProvince: state,
    PostalCode: zip,
    Latitude: coordinate(90),
    Longitude: coordinate(180),
    BedroomsTotal: count,
    BathroomsTotalInteger: count,
    BathroomsTotalDecimal: decimal,
    LivingArea: z.preprocess(
      cleanNumber,
      z.number('must be a number').positive('must be a positive number').optional(),
    ),
    PropertyType: text(100),
    ModificationTimestamp: timestamp,
  })
  .superRefine((record, ctx) => {
    const listed = record.ListingContractDate ?? record.OnMarketDate
    if (record.CloseDate && listed && record.CloseDate < listed) {
      const field = record.ListingContractDate ? 'ListingContractDate' : 'OnMarketDate'
      ctx.addIssue({ code: 'custom', path: ['CloseDate'], message: `is before ${field} (${listed})` })
    }
    const today = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
    if (record.CloseDate && record.CloseDate > today) {
      ctx.addIssue({ code: 'custom', path: ['CloseDate'], message: `is in the future (${record.CloseDate})` })
    }
    if (record.ClosePrice !== undefined && record.ListPrice !== undefined && record.ListPrice > 0) {
      const ratio = record.ClosePrice / record.ListPrice
      if (ratio < plausible.minCloseToList || ratio > plausible.maxCloseToList) {
        ctx.addIssue({
          code: 'custom',
          path: ['ClosePrice'],
          message: `is ${ratio.toFixed(2)} times ListPrice (${usd(record.ListPrice)}): outside ${plausible.minCloseToList}-${plausible.maxCloseToList}, one of the prices is wrong`,
        })
      }
    }
    // the close fields belong to a closed sale; on an Active (or Pending, Canceled, ...) listing they are stale
    if (record.StandardStatus !== undefined && record.StandardStatus !== 'Closed') {
      for (const field of ['ClosePrice', 'CloseDate'] as const) {
        if (record[field] !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: `must be empty unless StandardStatus is Closed (it is ${record.StandardStatus})`,
          })
      }
    }
    if (record.StandardStatus === 'Closed' && record.ClosePrice === undefined) {
      ctx.addIssue({ code: 'custom', path: ['ClosePrice'], message: 'is required when StandardStatus is Closed' })
    }
    if (record.StandardStatus === 'Closed' && record.CloseDate === undefined) {
      ctx.addIssue({ code: 'custom', path: ['CloseDate'], message: 'is required when StandardStatus is Closed' })
    }
    if (!record.UnparsedAddress && !record.StreetName && !record.StreetNumber) {
      ctx.addIssue({
        code: 'custom',
        path: ['StreetName'],
        message: 'is required (or UnparsedAddress or StreetNumber)',
      })
    }
  })
export type PropertyRecord = z.infer<typeof PropertyRecordSchema>

/** A RESO Member record (an agent): keyed by MemberKey, or by MemberMlsId when the feed has no keys. */
export const MemberRecordSchema = z
  .object({
    MemberKey: text(255),
    MemberMlsId: text(100),
    MemberFullName: text(200),
    MemberFirstName: text(100),
    MemberLastName: text(100),
    MemberStateLicense: text(100),
    MemberEmail: z.preprocess(blankToUndefined, z.email('must be an e-mail address').optional()),
    MemberPreferredPhone: text(40),
    MemberDirectPhone: text(40),
    MemberMobilePhone: text(40),
    OfficeName: text(300),
    MemberOfficeName: text(300),
  })
  .superRefine((record, ctx) => {
    if (!record.MemberKey && !record.MemberMlsId) {
      ctx.addIssue({ code: 'custom', path: ['MemberKey'], message: 'is required (or MemberMlsId)' })
    }
    if (!record.MemberFullName && !record.MemberFirstName && !record.MemberLastName) {
      ctx.addIssue({
        code: 'custom',
        path: ['MemberFullName'],
        message: 'is required (or MemberFirstName/MemberLastName)',
      })
    }
  })
export type MemberRecord = z.infer<typeof MemberRecordSchema>

/** A properties row as the importer writes it (snake_case columns of public.properties, null for missing). */
export interface PropertyRow {
  source: string
  source_record_id: string
  listing_key: string
  address: string
  street_number: string | null
  street_name: string | null
  unit_number: string | null
  city: string | null
  state: string | null
  zip_code: string | null
  latitude: number | null
  longitude: number | null
  list_price: number | null
  original_list_price: number | null
  sale_price: number | null
  sale_date: string | null
  listing_contract_date: string | null
  days_on_market: number | null
  bedrooms: number | null
  bathrooms: number | null
  square_feet: number | null
  property_type: string | null
  standard_status: string | null
  status: string | null
  list_agent_key: string | null
  list_agent_mls_id: string | null
  co_list_agent_key: string | null
  co_list_agent_mls_id: string | null
  buyer_agent_key: string | null
  buyer_agent_mls_id: string | null
  co_buyer_agent_key: string | null
  co_buyer_agent_mls_id: string | null
  list_office_key: string | null
  list_office_mls_id: string | null
  list_office_name: string | null
  co_list_office_key: string | null
  co_list_office_mls_id: string | null
  co_list_office_name: string | null
  buyer_office_key: string | null
  buyer_office_mls_id: string | null
  buyer_office_name: string | null
  co_buyer_office_key: string | null
  co_buyer_office_mls_id: string | null
  co_buyer_office_name: string | null
  modification_timestamp: string | null
  /** Not properties columns: the names of agents created from an ...AgentMlsId that comes without a Key. */
  list_agent_full_name: string | null
  co_list_agent_full_name: string | null
  buyer_agent_full_name: string | null
  co_buyer_agent_full_name: string | null
}

/**
 * The four agent roles of a sale as RESO names them, with the row columns of each: the agent's Key and MLS id, the
 * agent's name (only used to create an agent known by MLS id alone) and the office's Key, MLS id and name.
 */
export const agentRoles = [
  {
    role: 'list',
    key: 'list_agent_key',
    mlsId: 'list_agent_mls_id',
    name: 'list_agent_full_name',
    officeKey: 'list_office_key',
    officeMlsId: 'list_office_mls_id',
    officeName: 'list_office_name',
  },
  {
    role: 'co_list',
    key: 'co_list_agent_key',
    mlsId: 'co_list_agent_mls_id',
    name: 'co_list_agent_full_name',
    officeKey: 'co_list_office_key',
    officeMlsId: 'co_list_office_mls_id',
    officeName: 'co_list_office_name',
  },
  {
    role: 'buyer',
    key: 'buyer_agent_key',
    mlsId: 'buyer_agent_mls_id',
    name: 'buyer_agent_full_name',
    officeKey: 'buyer_office_key',
    officeMlsId: 'buyer_office_mls_id',
    officeName: 'buyer_office_name',
  },
  {
    role: 'co_buyer',
    key: 'co_buyer_agent_key',
    mlsId: 'co_buyer_agent_mls_id',
    name: 'co_buyer_agent_full_name',
    officeKey: 'co_buyer_office_key',
    officeMlsId: 'co_buyer_office_mls_id',
    officeName: 'co_buyer_office_name',
  },
] as const satisfies ReadonlyArray<{
  role: string
  key: keyof PropertyRow
  mlsId: keyof PropertyRow
  name: keyof PropertyRow
  officeKey: keyof PropertyRow
  officeMlsId: keyof PropertyRow
  officeName: keyof PropertyRow
}>

/** An agents row from a Member record. */
export interface MemberRow {
  /** RESO MemberKey; null for a feed without keys (then mls_id identifies the agent). */
  member_key: string | null
  mls_id: string | null
  name: string
  license_number: string | null
  email: string | null
  phone: string | null
  brokerage: string | null
}

export type Validated<T> = { ok: true; row: T } | { ok: false; reason: string }

function reasonOf(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || 'record'}: ${issue.message}`).join('; ')
}

const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value)

/** Validates a Property record; `source` is the feed name stored with it. */
export function toPropertyRow(record: Record<string, unknown>, source: string): Validated<PropertyRow> {
  const parsed = PropertyRecordSchema.safeParse(record)
  if (!parsed.success) return { ok: false, reason: reasonOf(parsed.error) }
  const r = parsed.data
  const street = [r.StreetNumber, r.StreetName].filter(Boolean).join(' ') + (r.UnitNumber ? ` #${r.UnitNumber}` : '')
  // a street number alone (scraped rows lose street names) is no address; the town makes the row recognisable
  const address =
    r.UnparsedAddress ??
    (r.StreetName
      ? street
      : [street, r.City, [r.StateOrProvince, r.PostalCode].filter(Boolean).join(' ')].filter(Boolean).join(', '))
  const bathrooms = r.BathroomsTotalInteger ?? r.BathroomsTotalDecimal
  return {
    ok: true,
    row: {
      source,
      source_record_id: r.ListingKey,
      listing_key: r.ListingKey,
      address,
      street_number: orNull(r.StreetNumber),
      street_name: orNull(r.StreetName),
      unit_number: orNull(r.UnitNumber),
      city: orNull(r.City),
      state: orNull(r.StateOrProvince),
      zip_code: orNull(r.PostalCode),
      latitude: orNull(r.Latitude),
      longitude: orNull(r.Longitude),
      list_price: orNull(r.ListPrice),
      original_list_price: orNull(r.OriginalListPrice),
      sale_price: orNull(r.ClosePrice),
      sale_date: orNull(r.CloseDate),
      listing_contract_date: orNull(r.ListingContractDate ?? r.OnMarketDate),
      days_on_market: orNull(r.DaysOnMarket),
      bedrooms: orNull(r.BedroomsTotal),
      bathrooms: bathrooms === undefined ? null : Math.round(bathrooms * 10) / 10,
      square_feet: r.LivingArea === undefined ? null : Math.round(r.LivingArea),
      property_type: r.PropertyType === undefined ? null : normalizePropertyType(r.PropertyType),
      standard_status: orNull(r.StandardStatus),
      status: orNull(r.StandardStatus),
      list_agent_key: orNull(r.ListAgentKey),
      list_agent_mls_id: orNull(r.ListAgentMlsId),
      co_list_agent_key: orNull(r.CoListAgentKey),
      co_list_agent_mls_id: orNull(r.CoListAgentMlsId),
      buyer_agent_key: orNull(r.BuyerAgentKey),
      buyer_agent_mls_id: orNull(r.BuyerAgentMlsId),
      co_buyer_agent_key: orNull(r.CoBuyerAgentKey),
      co_buyer_agent_mls_id: orNull(r.CoBuyerAgentMlsId),
      list_office_key: orNull(r.ListOfficeKey),
      list_office_mls_id: orNull(r.ListOfficeMlsId),
      list_office_name: orNull(r.ListOfficeName),
      co_list_office_key: orNull(r.CoListOfficeKey),
      co_list_office_mls_id: orNull(r.CoListOfficeMlsId),
      co_list_office_name: orNull(r.CoListOfficeName),
      buyer_office_key: orNull(r.BuyerOfficeKey),
      buyer_office_mls_id: orNull(r.BuyerOfficeMlsId),
      buyer_office_name: orNull(r.BuyerOfficeName),
      co_buyer_office_key: orNull(r.CoBuyerOfficeKey),
      co_buyer_office_mls_id: orNull(r.CoBuyerOfficeMlsId),
      co_buyer_office_name: orNull(r.CoBuyerOfficeName),
      modification_timestamp: orNull(r.ModificationTimestamp),
      list_agent_full_name: orNull(r.ListAgentFullName),
      co_list_agent_full_name: orNull(r.CoListAgentFullName),
      buyer_agent_full_name: orNull(r.BuyerAgentFullName),
      co_buyer_agent_full_name: orNull(r.CoBuyerAgentFullName),
    },
  }
}

/** Validates a Member record into an agents row. */
export function toMemberRow(record: Record<string, unknown>): Validated<MemberRow> {
  const parsed = MemberRecordSchema.safeParse(record)
  if (!parsed.success) return { ok: false, reason: reasonOf(parsed.error) }
  const r = parsed.data
  return {
    ok: true,
    row: {
      member_key: orNull(r.MemberKey),
      mls_id: orNull(r.MemberMlsId),
      name: r.MemberFullName ?? [r.MemberFirstName, r.MemberLastName].filter(Boolean).join(' '),
      license_number: orNull(r.MemberStateLicense),
      email: orNull(r.MemberEmail),
      phone: orNull(r.MemberPreferredPhone ?? r.MemberDirectPhone ?? r.MemberMobilePhone),
      brokerage: orNull(r.MemberOfficeName ?? r.OfficeName),
    },
  }
}

/** Which RESO resource a record belongs to, from its key field. */
export function detectResource(record: Record<string, unknown>): 'Property' | 'Member' | undefined {
  if ('ListingKey' in record) return 'Property'
  if ('MemberKey' in record || 'MemberMlsId' in record) return 'Member'
  return undefined
}

/** The key a Member row is known by: its MemberKey, else its MLS id. */
export function memberRowKey(row: MemberRow): string {
  return row.member_key !== null ? `key:${row.member_key}` : `mls:${row.mls_id}`
}
