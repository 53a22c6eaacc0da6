import { z } from 'zod'

/** The tables whose admin writes public.audit_log records (the trigger's list), for the table filter. */
export const AUDITED_TABLES = [
  'report_requests',
  'lead_notes',
  'blog_posts',
  'blog_categories',
  'blog_post_redirects',
  'agents',
  'properties',
  'trending_topics',
  'content_generation_jobs',
  'newsletter_subscriptions',
  'user_roles',
  'agent_claims',
  'agent_corrections',
  'agent_visibility_requests',
] as const

/** How the audit log names each table for people. */
export const TABLE_LABELS: Record<(typeof AUDITED_TABLES)[number], string> = {
  report_requests: 'Leads',
  lead_notes: 'Lead notes',
  blog_posts: 'Posts',
  blog_categories: 'Categories',
  blog_post_redirects: 'Post redirects',
  agents: 'Agents',
  properties: 'Listings',
  trending_topics: 'Topics',
  content_generation_jobs: 'Generation jobs',
  newsletter_subscriptions: 'Newsletter',
  user_roles: 'Roles',
  agent_claims: 'Agent claims',
  agent_corrections: 'Agent corrections',
  agent_visibility_requests: 'Agent visibility',
}

export const AUDIT_ACTIONS = ['insert', 'update', 'delete', 'trash', 'restore'] as const
export type AuditAction = (typeof AUDIT_ACTIONS)[number]

export const ACTION_LABELS: Record<AuditAction, string> = {
  insert: 'Created',
  update: 'Changed',
  delete: 'Deleted for good',
  trash: 'Moved to trash',
  restore: 'Restored',
}

/** Entries per page of the audit log. */
export const AUDIT_PAGE_SIZE = 50

export const AUDIT_SEARCH_DEFAULTS = { table: 'all', page: 1 } as const

/** The Audit Log's URL state: `?table=&page=`. */
export const AuditSearchSchema = z.object({
  table: z
    .enum(['all', ...AUDITED_TABLES])
    .default('all')
    .catch('all'),
  page: z.coerce.number().int().min(1).max(10_000).default(1).catch(1),
})
export type AuditSearch = z.infer<typeof AuditSearchSchema>
export type AuditFilters = AuditSearch

/** One audit_log row as the admin reads it. */
export type AuditEntry = {
  id: number
  at: string
  actor_email: string | null
  table_name: string
  row_id: string
  action: AuditAction
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
}

/** What the trash holds: deleted leads or deleted posts. */
export type TrashKind = 'lead' | 'post'

/** One changed field of an entry, values as short text ('—' for none). */
export type FieldChange = { field: string; before: string; after: string }

const MAX_VALUE_CHARACTERS = 120

/** A stored value as one short line of text: strings as they are, everything else as JSON, cut at 120 characters. */
export function shortValue(value: unknown): string {
  if (value === undefined || value === null) return '—'
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > MAX_VALUE_CHARACTERS ? `${line.slice(0, MAX_VALUE_CHARACTERS - 1)}…` : line || '""'
}

/**
 * The fields an entry touched, before and after. An insert lists what was set and a delete what the row held
 * (bookkeeping columns such as ids and timestamps left out), an update the columns that changed, a move to the
 * trash or back the deletion stamp.
 */
export function fieldChanges(entry: Pick<AuditEntry, 'action' | 'before' | 'after'>): FieldChange[] {
  const before = entry.before ?? {}
  const after = entry.after ?? {}
  const whole = entry.action === 'insert' || entry.action === 'delete' || entry.action === 'trash'
  // a move to the trash or back stores the whole row on one side; its change is the deletion stamp on the other
  const fields =
    entry.action === 'trash'
      ? Object.keys(after)
      : entry.action === 'restore'
        ? Object.keys(before)
        : [...new Set([...Object.keys(before), ...Object.keys(after)])]
  const listed = whole && entry.action !== 'trash' ? fields.filter((field) => !BOOKKEEPING.has(field)) : fields
  return listed.map((field) => ({ field, before: shortValue(before[field]), after: shortValue(after[field]) }))
}

const BOOKKEEPING = new Set(['id', 'created_at', 'updated_at', 'deleted_at', 'deleted_by'])

/** The entry's row in words: the lead's name, the post's title, else the row id. */
export function rowLabel(entry: Pick<AuditEntry, 'row_id' | 'before' | 'after'>): string {
  const row = { ...(entry.before ?? {}), ...(entry.after ?? {}) }
  for (const key of ['full_name', 'title', 'name', 'topic', 'email', 'body']) {
    const value = row[key]
    if (typeof value === 'string' && value.trim() !== '') return shortValue(value)
  }
  return entry.row_id
}
