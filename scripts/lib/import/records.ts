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
  z.number('must be a number (USD)').positive('must be a positive number (USD)').optional(),
)
const count = z.preprocess(
  cleanNumber,
  z.number('must be a number').int('must be a whole number').min(0, 'must not be negative').optional(),
)
const decimal = z.preprocess(cleanNumber, z.number('must be a number').min(0, 'must not be negative').optional())
const date = z.preprocess((value) => {
  const blank = blankToUndefined(value)
  return blank === undefined ? undefined : (parseDate(blank) ?? blank)
}, z.iso.date('must be a date (YYYY-MM-DD)').optional())
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
    StandardStatus: z.preprocess(
      blankToUndefined,
      z
        .enum(
          standardStatuses,
          'must be a RESO StandardStatus (Active, Pending, Closed, Canceled, Expired, Withdrawn, ...)',
        )
        .optional(),
    ),
    ListPrice: price,
    OriginalListPrice: price,
    ClosePrice: price,
    CloseDate: date,
    ListingContractDate: date,
    OnMarketDate: date,
    DaysOnMarket: count,
    ListAgentMlsId: text(100),
    ListAgentFullName: text(200),
    BuyerAgentMlsId: text(100),
    ListOfficeName: text(300),
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

/** A RESO Member record (an agent). */
export const MemberRecordSchema = z
  .object({
    MemberMlsId: key(100),
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
  list_agent_mls_id: string | null
  buyer_agent_mls_id: string | null
  list_office_name: string | null
  modification_timestamp: string | null
  /** Not a properties column: names the agent created from ListAgentMlsId. */
  list_agent_full_name: string | null
}

/** An agents row from a Member record. */
export interface MemberRow {
  mls_id: string
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
      property_type: orNull(r.PropertyType),
      standard_status: orNull(r.StandardStatus),
      status: orNull(r.StandardStatus),
      list_agent_mls_id: orNull(r.ListAgentMlsId),
      buyer_agent_mls_id: orNull(r.BuyerAgentMlsId),
      list_office_name: orNull(r.ListOfficeName),
      modification_timestamp: orNull(r.ModificationTimestamp),
      list_agent_full_name: orNull(r.ListAgentFullName),
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
      mls_id: r.MemberMlsId,
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
  if ('MemberMlsId' in record) return 'Member'
  return undefined
}
