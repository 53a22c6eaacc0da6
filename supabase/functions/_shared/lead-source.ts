/**
 * Where a lead came from: the site path the report request was sent from and the UTM parameters of the visit's
 * landing URL (the CRM shows it as the lead's source: page, agent, UTM). One home for the field names, the
 * limits (they repeat the report_requests check constraints: path up to 500 characters starting with `/`, each UTM
 * value up to 100) and the browser capture, used by the site's layout and form, the request-report function and the
 * admin CRM. No zod here, so every site page can bundle the capture cheaply; the zod fields are in ./report-request.ts.
 */
/** The UTM parameters kept with a lead, in display order. */
export const UTM_FIELDS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const
export type UtmField = (typeof UTM_FIELDS)[number]

/** Longest stored source path (report_requests_source_page_check). */
export const SOURCE_PAGE_MAX = 500
/** Longest stored UTM value (report_requests_utm_*_check). */
export const UTM_MAX = 100

/** The lead-source part of a report request body; every field optional, blanks become null. */
export type LeadSource = { source_page?: string | null } & { [K in UtmField]?: string | null }

/** sessionStorage key holding the visit's UTM parameters (JSON object of the UTM_FIELDS present). */
export const UTM_STORAGE_KEY = 'ai_lead_utm'

/** The browser's sessionStorage, or null where reading it throws (storage disabled, sandboxed frames). */
export function visitStorage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null
  } catch {
    return null
  }
}

/**
 * Browser side: remembers the UTM parameters of the landing URL for the visit. A page whose URL carries any utm_*
 * parameter replaces the stored set (a new campaign click); a page without keeps it. Values are cut to UTM_MAX.
 * Returns the visit's UTM set. Storage errors (private mode, disabled storage) leave the URL's own values.
 */
export function captureUtm(
  search: string,
  storage: Pick<Storage, 'getItem' | 'setItem'> | null,
): Partial<Record<UtmField, string>> {
  const params = new URLSearchParams(search)
  const fromUrl: Partial<Record<UtmField, string>> = {}
  for (const field of UTM_FIELDS) {
    const value = params.get(field)?.trim()
    if (value) fromUrl[field] = value.slice(0, UTM_MAX)
  }
  try {
    if (Object.keys(fromUrl).length > 0) {
      storage?.setItem(UTM_STORAGE_KEY, JSON.stringify(fromUrl))
      return fromUrl
    }
    const stored = storage?.getItem(UTM_STORAGE_KEY)
    if (!stored) return {}
    const parsed = JSON.parse(stored) as Record<string, unknown>
    const visit: Partial<Record<UtmField, string>> = {}
    for (const field of UTM_FIELDS) if (typeof parsed[field] === 'string') visit[field] = parsed[field]
    return visit
  } catch {
    return fromUrl
  }
}

/** "page · utm_source=… · utm_medium=…" for the CRM, or null when the lead has no source recorded. */
export function describeLeadSource(
  lead: { source_page: string | null } & { [K in UtmField]?: string | null },
): string | null {
  const parts = [
    lead.source_page,
    ...UTM_FIELDS.map((field) => (lead[field] ? `${field}=${lead[field]}` : null)),
  ].filter(Boolean)
  return parts.length > 0 ? parts.join(' · ') : null
}
