/**
 * What a profile shows of its claim and its agent's own words, as HTML from the build (no JavaScript): the
 * "Claimed by the agent" line with its date or the way to claim it, the corrections line ("n corrections accepted,
 * m pending"), the about section (bio, specialties, languages: shown for any agent that has them), the contact the
 * agent lets the profile show, and the marker an accepted correction puts on a sale row. Self-contained, so the
 * profile view only places them.
 */
import type { AgentRow, SaleCorrection } from '../lib/agent-profile'
import { formatDate, formatUsd } from '../lib/format'
import { CORRECTION_MARKERS, claimedLine, correctionsLine } from '@shared/agent-claim-words.ts'

type ClaimFields = Pick<AgentRow, 'id' | 'claimed_at' | 'corrections_accepted' | 'corrections_pending'>

/** The URL of the claim page of an agent. */
export const claimUrl = (agentId: string) => `/account/claim?agent=${encodeURIComponent(agentId)}`

/** "Claimed by the agent on <date>" and the corrections line, or, for an unclaimed profile, a link to claim it. */
export function AgentClaimStatus({ agent }: { agent: ClaimFields }) {
  const claimed = claimedLine(agent.claimed_at)
  const corrections = correctionsLine(agent.corrections_accepted ?? 0, agent.corrections_pending ?? 0)
  return (
    <p className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm" data-testid="claim-status">
      {claimed ? (
        <span className="inline-flex items-center gap-1 rounded-full bg-green-50 px-2.5 py-1 font-medium text-green-900">
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 fill-current">
            <path d="M8 13.2 4.8 10l-1.1 1.1L8 15.4l8.3-8.3-1.1-1.1z" />
          </svg>
          {claimed}
        </span>
      ) : (
        <a href={claimUrl(agent.id)} className="font-medium text-blue-700 underline">
          Are you this agent? Claim this profile
        </a>
      )}
      {corrections && <span className="text-slate-700">{corrections}</span>}
    </p>
  )
}

/** The agent's bio (paragraphs as written), specialties and languages; nothing when the agent has none. */
export function AgentAbout({ agent }: { agent: Pick<AgentRow, 'bio' | 'specialties' | 'languages' | 'name'> }) {
  const specialties = agent.specialties ?? []
  const languages = agent.languages ?? []
  if (!agent.bio && specialties.length === 0 && languages.length === 0) return null
  return (
    <section aria-labelledby="about-title">
      <h2 id="about-title" className="text-xl font-semibold">
        About {agent.name}
      </h2>
      {agent.bio &&
        agent.bio.split(/\n{2,}/).map((paragraph, index) => (
          <p key={index} className="mt-2 whitespace-pre-line break-words text-slate-800">
            {paragraph}
          </p>
        ))}
      {specialties.length > 0 && (
        <div className="mt-3">
          <h3 className="text-sm font-semibold text-slate-700">Specialties</h3>
          <ul className="mt-1 flex flex-wrap gap-2" aria-label="Specialties">
            {specialties.map((item) => (
              <li key={item} className="rounded-full bg-blue-50 px-2.5 py-1 text-sm text-blue-900">
                {item}
              </li>
            ))}
          </ul>
        </div>
      )}
      {languages.length > 0 && (
        <p className="mt-3 text-sm text-slate-800">
          <span className="font-semibold text-slate-700">Languages: </span>
          {languages.join(', ')}
        </p>
      )}
    </section>
  )
}

/** The phone and email the profile may show: null where the agent asked to hide it (or there is none). */
export function visibleContact(agent: Pick<AgentRow, 'phone' | 'email' | 'hide_phone' | 'hide_email'>): {
  phone: string | null
  email: string | null
} {
  return { phone: agent.hide_phone ? null : agent.phone, email: agent.hide_email ? null : agent.email }
}

/**
 * What an accepted correction of a sale says, in a few words: "Price or date corrected: $610,000, Mar 3, 2026, list
 * $600,000" (the close price, close date and list price it gives, those it changes only).
 */
export function correctionMarkerText(correction: SaleCorrection): string {
  const base = CORRECTION_MARKERS[correction.kind]
  if (correction.kind === 'wrong_price_date') {
    const parts = [
      correction.close_price !== null ? formatUsd(correction.close_price) : null,
      correction.close_date !== null ? formatDate(correction.close_date) : null,
      correction.list_price != null ? `list ${formatUsd(correction.list_price)}` : null,
    ].filter(Boolean)
    return parts.length > 0 ? `${base}: ${parts.join(', ')}` : base
  }
  if (correction.kind === 'wrong_side' && correction.side) return `${base}: ${correction.side} side`
  return base
}

/** The markers of a sale's accepted corrections, for its row; nothing when it has none. */
export function SaleCorrectionMarkers({ corrections }: { corrections: readonly SaleCorrection[] }) {
  if (corrections.length === 0) return null
  return (
    <span className="mt-1 flex flex-wrap gap-1">
      {corrections.map((correction) => (
        <span
          key={correction.correction_id}
          data-testid="correction-marker"
          className="rounded bg-amber-50 px-1.5 py-0.5 text-xs font-medium text-amber-950"
          title={`Correction accepted ${formatDate(correction.accepted_at?.slice(0, 10) ?? null)}`}
        >
          {correctionMarkerText(correction)}
        </span>
      ))}
    </span>
  )
}

/**
 * Every accepted correction of the agent's record, newest first: the sale (address, MLS number), what changed and
 * when it was accepted. A sale removed from the agent's record has no row in the sales list any more, so this list
 * is where its mark stays. Nothing when there are none.
 */
export function AcceptedCorrections({ corrections }: { corrections: readonly SaleCorrection[] }) {
  if (corrections.length === 0) return null
  return (
    <section aria-labelledby="corrections-title">
      <h2 id="corrections-title" className="text-xl font-semibold">
        Corrections of this record
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Accepted after review. The MLS record itself is unchanged; the figures above include these corrections.
      </p>
      <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white text-sm">
        {corrections.map((correction) => (
          <li key={correction.correction_id} className="px-3 py-2">
            <span className="font-medium">
              {correction.address ?? 'Sale'}
              {correction.listing_number && ` (MLS ${correction.listing_number})`}
            </span>
            : {correctionMarkerText(correction)}
            {correction.accepted_at && (
              <span className="text-slate-600"> · accepted {formatDate(correction.accepted_at.slice(0, 10))}</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  )
}
