/**
 * The contract of agent claims, profile edits, visibility requests and corrections: the request bodies of the
 * agent-claim, agent-photo and agent-review functions, the forms of the site and the admin that check the same
 * schemas before sending, the words the site and the admin use for statuses and kinds, and the limits the database
 * enforces too (supabase/migrations/20261128000000_create_agent_claims.sql and the two after it). Import-free apart
 * from zod, so Deno, Node and the browser load it.
 */
import { z } from 'zod'

import { CORRECTION_KINDS } from './agent-claim-words.ts'

export * from './agent-claim-words.ts'

/** How long a mailed claim code stays valid, minutes. */
export const CLAIM_CODE_MINUTES = 30
/** Wrong codes a claim may take before a new code is needed (private.agent_claim_max_attempts). */
export const CLAIM_CODE_MAX_ATTEMPTS = 5

/** Limits of what the owner writes (the database checks the same). */
export const PROFILE_LIMITS = {
  bio: 2000,
  specialties: { items: 10, length: 60 },
  languages: { items: 10, length: 40 },
  message: 1000,
  explanation: 1000,
  reason: 1000,
} as const

/** Rate limits of the agent-claim function (per hour unless named), besides the database's per-user limits. */
export const CLAIM_LIMITS = {
  startsPerUser: 5,
  startsPerIp: 10,
  /** Codes mailed to one agent's MLS address: at most this many an hour, whoever asks. */
  codesPerAgent: 3,
  verifiesPerUser: 20,
  verifiesPerIp: 60,
  reviewsPerUserPerDay: 5,
  photosPerUser: 20,
} as const

export const CLAIM_RATE_LIMIT_MESSAGE = 'Too many claim attempts. Please wait an hour and try again.'
export const CODE_MAIL_FAILED_MESSAGE =
  'We could not send the code to the email on the MLS record. Try again later, or ask for a review instead.'

const uuid = (name: string) => z.uuid({ error: `${name} must be an id` })

/** A license number as typed: 1-50 characters. */
const licenseNumber = z
  .string({ error: 'Enter the license number' })
  .trim()
  .min(1, 'Enter the license number')
  .max(50, 'A license number has at most 50 characters')

/** agent-claim: send a code to the agent's MLS email after checking the license number. */
export const ClaimStartSchema = z.strictObject({
  action: z.literal('start'),
  agentId: uuid('agentId'),
  licenseNumber,
})

/** agent-claim: the six-digit code from the mail. */
export const ClaimVerifySchema = z.strictObject({
  action: z.literal('verify'),
  claimId: uuid('claimId'),
  code: z
    .string({ error: 'Enter the 6-digit code from the email' })
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6-digit code from the email'),
})

/** agent-claim: ask an administrator to check the claim by hand. */
export const ClaimReviewSchema = z.strictObject({
  action: z.literal('review'),
  agentId: uuid('agentId'),
  licenseNumber: licenseNumber.optional(),
  message: z
    .string({ error: 'Tell us how we can check that you are this agent' })
    .trim()
    .min(1, 'Tell us how we can check that you are this agent')
    .max(PROFILE_LIMITS.message, 'Keep it to 1,000 characters'),
})

export const AgentClaimRequestSchema = z.discriminatedUnion(
  'action',
  [ClaimStartSchema, ClaimVerifySchema, ClaimReviewSchema],
  { error: 'action must be start, verify or review' },
)
export type AgentClaimRequest = z.infer<typeof AgentClaimRequestSchema>

/** agent-claim's answers. */
export type ClaimStartAnswer = { claimId: string; sentTo: string; expiresAt: string }
export type ClaimVerifyAnswer = { status: 'approved'; agentId: string }
export type ClaimReviewAnswer = { claimId: string }

/** A list field of the profile form: one entry a line or separated by commas, trimmed, blanks and repeats dropped. */
export function splitList(text: string): string[] {
  const seen = new Set<string>()
  const items: string[] = []
  for (const raw of text.split(/[\n,]/)) {
    const item = raw.replace(/\s+/g, ' ').trim()
    if (item && !seen.has(item.toLowerCase())) {
      seen.add(item.toLowerCase())
      items.push(item)
    }
  }
  return items
}

const listField = (label: string, limits: { items: number; length: number }) =>
  z
    .array(z.string().trim().min(1).max(limits.length, `Keep each ${label} to ${limits.length} characters`))
    .max(limits.items, `List at most ${limits.items} ${label === 'language' ? 'languages' : 'specialties'}`)

/** The owner's profile edit (bio, specialties, languages), as the site's form sends it to public.agents. */
export const AgentProfileEditSchema = z.strictObject({
  bio: z
    .string()
    .trim()
    .max(PROFILE_LIMITS.bio, 'Keep the bio to 2,000 characters')
    .transform((value) => (value === '' ? null : value))
    .nullable(),
  specialties: listField('specialty', PROFILE_LIMITS.specialties),
  languages: listField('language', PROFILE_LIMITS.languages),
})
export type AgentProfileEdit = z.infer<typeof AgentProfileEditSchema>

/** agent-photo: the uploaded object to use (`<agentId>/<file>` in agent-photos), or null to remove the photo. */
export const AgentPhotoRequestSchema = z.strictObject({
  agentId: uuid('agentId'),
  objectName: z
    .string()
    .regex(/^[0-9a-f-]{36}\/[A-Za-z0-9._-]{1,200}$/, 'objectName must be <agent id>/<file name>')
    .nullable(),
})
export type AgentPhotoRequest = z.infer<typeof AgentPhotoRequestSchema>

/** The Storage bucket of agents' photos and its limits: the same as post media (5 MB, raster image types). */
export const AGENT_PHOTO_BUCKET = 'agent-photos'
export const AGENT_PHOTO_MAX_BYTES = 5 * 1024 * 1024
export const AGENT_PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif'] as const

/** Why `file` cannot be a profile photo, or null when it can (the bucket refuses the same). */
export function agentPhotoProblem(file: { size: number; type: string }): string | null {
  if (!(AGENT_PHOTO_TYPES as readonly string[]).includes(file.type))
    return 'The photo must be a JPEG, PNG, WebP, AVIF or GIF image.'
  if (file.size > AGENT_PHOTO_MAX_BYTES) return 'The photo must be at most 5 MB.'
  return null
}

/**
 * The image type the first bytes of a file show (JPEG, PNG, GIF, WebP, AVIF), or null when they are none of these:
 * what the agent-photo function checks before a photo goes on a profile, whatever Content-Type the upload declared.
 * Signatures: JPEG FF D8 FF; PNG 89 50 4E 47 0D 0A 1A 0A; GIF "GIF87a"/"GIF89a"; WebP "RIFF" .... "WEBP";
 * AVIF an ISO BMFF "ftyp" box with brand avif or avis.
 */
export function imageTypeOf(bytes: Uint8Array): (typeof AGENT_PHOTO_TYPES)[number] | null {
  const ascii = (start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end))
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg'
  if (bytes.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, i) => bytes[i] === byte))
    return 'image/png'
  if (bytes.length >= 6 && (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a')) return 'image/gif'
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp'
  if (bytes.length >= 12 && ascii(4, 8) === 'ftyp' && ['avif', 'avis'].includes(ascii(8, 12))) return 'image/avif'
  return null
}

/** How the profile should be shown: a visibility request, filed into public.agent_visibility_requests. */
export const VisibilityRequestSchema = z.strictObject({
  hide_phone: z.boolean(),
  hide_email: z.boolean(),
  noindex: z.boolean(),
  note: z.string().trim().max(PROFILE_LIMITS.message, 'Keep the note to 1,000 characters').optional(),
})
export type VisibilityRequest = z.infer<typeof VisibilityRequestSchema>

const isoDate = z.iso.date({ error: 'Enter a date' })
const side = z.enum(['listing', 'buyer'], { error: 'Pick the side you had' })
const explanation = z.string().trim().max(PROFILE_LIMITS.explanation, 'Keep the explanation to 1,000 characters')
const mlsNumber = z
  .string({ error: 'Enter the MLS number' })
  .trim()
  .min(1, 'Enter the MLS number')
  .max(100, 'An MLS number has at most 100 characters')
/** The sale's address: required for a missing sale; for the other kinds it tells apart one MLS number in two feeds. */
const saleAddress = z
  .string({ error: 'Enter the address of the sale' })
  .trim()
  .min(1, 'Enter the address of the sale')
  .max(300, 'Keep the address to 300 characters')

/**
 * A correction as the owner files it (the columns of public.agent_corrections the owner may set): the sale by its
 * id (from a sales list) or its MLS number (with its address when two feeds have the number). Prices in USD, dates `YYYY-MM-DD`. The database checks the same and more
 * (the sale is credited to them, no duplicate pending).
 */
export const CorrectionRequestSchema = z
  .discriminatedUnion(
    'kind',
    [
      z.strictObject({
        kind: z.literal('not_my_sale'),
        property_id: z.uuid().optional(),
        listing_number: mlsNumber.optional(),
        address: saleAddress.optional(),
        explanation: explanation.optional(),
      }),
      z.strictObject({
        kind: z.literal('wrong_side'),
        property_id: z.uuid().optional(),
        listing_number: mlsNumber.optional(),
        address: saleAddress.optional(),
        side,
        explanation: explanation.optional(),
      }),
      z
        .strictObject({
          kind: z.literal('wrong_price_date'),
          property_id: z.uuid().optional(),
          listing_number: mlsNumber,
          close_price: z
            .number({ error: 'Enter the close price in dollars' })
            .positive('Enter the close price in dollars')
            .max(9_999_999_999, 'That price is too large')
            .optional(),
          close_date: isoDate.optional(),
          address: saleAddress.optional(),
          list_price: z
            .number({ error: 'Enter the list price in dollars' })
            .positive('Enter the list price in dollars')
            .max(9_999_999_999, 'That price is too large')
            .optional(),
          explanation: explanation.optional(),
        })
        .refine(
          (value) =>
            value.close_price !== undefined || value.close_date !== undefined || value.list_price !== undefined,
          { message: 'Give the right close price, close date or list price', path: ['close_price'] },
        ),
      z.strictObject({
        kind: z.literal('missing_sale'),
        listing_number: mlsNumber,
        address: saleAddress,
        side,
        explanation: explanation.optional(),
      }),
    ],
    { error: 'Pick what is wrong' },
  )
  .refine(
    (value) => value.kind === 'missing_sale' || value.property_id !== undefined || value.listing_number !== undefined,
    {
      message: 'Enter the MLS number of the sale',
      path: ['listing_number'],
    },
  )
export type CorrectionRequest = z.infer<typeof CorrectionRequestSchema>

export const REVIEW_SUBJECTS = ['claim', 'correction', 'visibility'] as const
export type ReviewSubject = (typeof REVIEW_SUBJECTS)[number]

/** agent-review: an administrator's decision, with the reason mailed to the agent (required to reject or revoke). */
export const ReviewDecisionSchema = z
  .strictObject({
    subject: z.enum(REVIEW_SUBJECTS, { error: 'subject must be claim, correction or visibility' }),
    id: uuid('id'),
    decision: z.enum(['approve', 'accept', 'reject', 'revoke'], {
      error: 'decision must be approve, accept, reject or revoke',
    }),
    reason: z.string().trim().max(PROFILE_LIMITS.reason, 'Keep the reason to 1,000 characters').optional(),
  })
  .refine((value) => !['reject', 'revoke'].includes(value.decision) || (value.reason ?? '') !== '', {
    message: 'Give a reason: it is mailed to the agent',
    path: ['reason'],
  })
  .refine(
    (value) =>
      value.subject === 'claim'
        ? ['approve', 'reject', 'revoke'].includes(value.decision)
        : ['accept', 'reject'].includes(value.decision),
    {
      message: 'A claim is approved, rejected or revoked; a request or correction is accepted or rejected',
      path: ['decision'],
    },
  )
export type ReviewDecision = z.infer<typeof ReviewDecisionSchema>
