/**
 * The words of agent claims and corrections that pages show (kinds, markers on sale rows, statuses, the claim and
 * correction lines of a profile). Import-free, so the prebuilt profile and its small islands load it without zod.
 */

export const CORRECTION_KINDS = ['not_my_sale', 'wrong_side', 'wrong_price_date', 'missing_sale'] as const
export type CorrectionKind = (typeof CORRECTION_KINDS)[number]

/** How the site and the admin name each kind. */
export const CORRECTION_KIND_LABELS: Record<CorrectionKind, string> = {
  not_my_sale: 'Not my sale',
  wrong_side: 'Wrong side',
  wrong_price_date: 'Wrong price or date',
  missing_sale: 'Missing sale',
}

/** The marker an accepted correction puts on a sale row. */
export const CORRECTION_MARKERS: Record<CorrectionKind, string> = {
  not_my_sale: 'Removed: not this agent’s sale',
  wrong_side: 'Side corrected',
  wrong_price_date: 'Price or date corrected',
  missing_sale: 'Added by correction',
}

/** The claim statuses in words. */
export const CLAIM_STATUS_LABELS = {
  code_sent: 'Code sent',
  review_requested: 'Review requested',
  approved: 'Approved',
  rejected: 'Rejected',
  revoked: 'Revoked',
} as const

/** Correction and visibility request statuses in words. */
export const REQUEST_STATUS_LABELS = {
  pending: 'Pending',
  accepted: 'Accepted',
  rejected: 'Rejected',
  withdrawn: 'Withdrawn',
} as const

/**
 * "Claimed by the agent on Nov 28, 2026" from agents.claimed_at (a timestamp), or null for an unclaimed profile.
 * The date is the UTC calendar day, so the prebuilt page says the same everywhere.
 */
export function claimedLine(claimedAt: string | null | undefined): string | null {
  if (!claimedAt) return null
  const date = new Date(claimedAt)
  if (Number.isNaN(date.getTime())) return null
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][date.getUTCMonth()]
  return `Claimed by the agent on ${month} ${date.getUTCDate()}, ${date.getUTCFullYear()}`
}

/** "2 corrections accepted, 1 pending" (null when there are none of either). */
export function correctionsLine(accepted: number, pending: number): string | null {
  if (accepted === 0 && pending === 0) return null
  return `${accepted} ${accepted === 1 ? 'correction' : 'corrections'} accepted, ${pending} pending`
}
