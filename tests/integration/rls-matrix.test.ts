/**
 * The RLS matrix: every table of the public schema, for anon, a signed-in non-admin, an admin and service_role (and,
 * for a table whose rows belong to a user, that owner: `user` is then another user), for select, insert, update and
 * delete, asserting exactly what is allowed and what is refused. A refusal may be an
 * error (no privilege, policy violation) or, for select/update/delete, a silent filter; both count as refused, and
 * an allowed update or delete is checked on the stored row.
 */
import type { SupabaseClient } from '@supabase/supabase-js'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anonClient, serviceClient, signedInClient, sql } from '../support/env.ts'
import { daysFromNow, testData } from '../support/factories.ts'

type Role = 'anon' | 'user' | 'admin' | 'service' | 'owner'
type Operation = 'select' | 'insert' | 'update' | 'delete'
const roles: Role[] = ['anon', 'user', 'admin', 'service']

const data = testData('rls-matrix')
let n = 0
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(n += 1)}`

interface TableCase {
  name: string
  table: string
  /** Creates a row as superuser; returns its key. */
  fixture(): Promise<string>
  /** The row an insert attempt sends (`role`: who attempts it, for a row whose owner column only the service role sets). */
  insert(role: Role): Record<string, unknown>
  /** A change and the SQL that tells whether it was stored. */
  update: {
    patch: () => Record<string, unknown>
    stored: (key: string, patch: Record<string, unknown>) => Promise<boolean>
  }
  key?: string
  /** A delete by an API user moves the row to the trash (deleted_at): allowed means it left the live rows. */
  softDelete?: boolean
  /** Rows belong to a user (the fixture's and the insert's rows are `ownerId`'s): the matrix adds the owner. */
  owned?: boolean
  /** Runs before each insert attempt (clears a row the attempt would collide with). */
  beforeInsert?: () => Promise<void>
  /**
   * refresh_agent_metrics() rebuilds the table from the sales, dropping rows without sales such as the fixtures: the
   * attempt holds the refresh's lock, so another test file's import cannot wipe its row between write and check.
   */
  rebuiltByRefresh?: boolean
  allowed: Record<Operation, Role[]>
}

const everyone: Role[] = ['anon', 'user', 'admin', 'service']
const admins: Role[] = ['admin', 'service']

async function insertReturningId(text: string, values: unknown[] = []): Promise<string> {
  const rows = await sql<{ id: string }>(text, values)
  return rows[0]!.id
}

const columnEquals =
  (table: string, column: string, key = 'id') =>
  async (id: string, patch: Record<string, unknown>) =>
    (await sql(`select 1 from public.${table} where ${key} = $1 and ${column} = $2`, [id, patch[column]])).length === 1

let otherUserId = ''
/** The signed-in user who owns the rows of the `owned` cases. */
let ownerId = ''
let savedAgentId = ''
let zipSalesAgentId = ''
let figuresAgentId = ''
let sidesInsertPropertyId = ''
let sidesInsertRole = 0
let namePostingAgentId = ''
/** A live post for redirects and revisions, and a lead for notes (made in beforeAll). */
let livePostId = ''
let leadId = ''

// published long ago, so these never rank among the newest posts a browser test looks for on the built home page
const livePostFixture = () => {
  const slug = unique('matrix-live')
  return data.post({ title: slug, slug, status: 'published', publishedAt: daysFromNow(-400) })
}

let claimInsertAgentId = ''
let correctionInsertAgentId = ''
let visibilityInsertAgentId = ''

/**
 * A fresh agent whose approved claim the owner holds (one account holds one profile, so the owner's earlier claim
 * is revoked first): the agent-claim cases each work on their own profile, in any order.
 */
async function ownedAgent(): Promise<string> {
  await sql(`update public.agent_claims set status = 'revoked' where user_id = $1 and status = 'approved'`, [ownerId])
  const agent = await data.agent({ name: 'Matrix Owned Agent' })
  await sql(
    `insert into public.agent_claims (agent_id, user_id, status, method, approved_at) values ($1, $2, 'approved', 'admin', now())`,
    [agent, ownerId],
  )
  return agent
}

const cases: TableCase[] = [
  {
    name: 'agents',
    table: 'agents',
    fixture: () => data.agent({ name: 'Matrix Agent' }),
    insert: () => ({ name: 'Inserted Agent' }),
    update: { patch: () => ({ bio: unique('bio') }), stored: columnEquals('agents', 'bio') },
    allowed: { select: everyone, insert: admins, update: admins, delete: admins },
  },
  {
    name: 'properties',
    table: 'properties',
    fixture: () => data.sale({ address: '1 Matrix Way', standardStatus: null }),
    insert: () => ({ address: '2 Matrix Way' }),
    update: { patch: () => ({ city: unique('City') }), stored: columnEquals('properties', 'city') },
    // listing rows only through the agent page's bounded functions (agent_page_sales, agent_page_quarters)
    allowed: { select: admins, insert: admins, update: admins, delete: admins },
  },
  {
    name: 'blog_categories',
    table: 'blog_categories',
    fixture: () => {
      const slug = unique('matrix-category')
      return insertReturningId(`insert into public.blog_categories (name, slug) values ($1, $1) returning id`, [slug])
    },
    insert: () => {
      const slug = unique('matrix-new-category')
      return { name: slug, slug }
    },
    update: {
      patch: () => ({ description: unique('description') }),
      stored: columnEquals('blog_categories', 'description'),
    },
    allowed: { select: everyone, insert: admins, update: admins, delete: admins },
  },
  {
    name: 'blog_posts (published)',
    table: 'blog_posts',
    fixture: () => {
      const slug = unique('matrix-published')
      return data.post({ title: slug, slug, status: 'published', publishedAt: daysFromNow(-1 / 24) })
    },
    insert: () => {
      const slug = unique('matrix-new-post')
      return { title: slug, slug }
    },
    update: { patch: () => ({ excerpt: unique('excerpt') }), stored: columnEquals('blog_posts', 'excerpt') },
    softDelete: true,
    allowed: { select: everyone, insert: admins, update: admins, delete: admins },
  },
  {
    name: 'blog_posts (draft)',
    table: 'blog_posts',
    fixture: () => {
      const slug = unique('matrix-draft')
      return data.post({ title: slug, slug })
    },
    insert: () => {
      const slug = unique('matrix-new-draft')
      return { title: slug, slug, status: 'draft' }
    },
    update: { patch: () => ({ excerpt: unique('excerpt') }), stored: columnEquals('blog_posts', 'excerpt') },
    softDelete: true,
    allowed: { select: admins, insert: admins, update: admins, delete: admins },
  },
  {
    name: 'trending_topics',
    table: 'trending_topics',
    fixture: () => insertReturningId(`insert into public.trending_topics (topic) values ('Matrix topic') returning id`),
    insert: () => ({ topic: 'New topic' }),
    update: {
      patch: () => ({ consumer_benefit: unique('benefit') }),
      stored: columnEquals('trending_topics', 'consumer_benefit'),
    },
    allowed: { select: admins, insert: admins, update: admins, delete: admins },
  },
  {
    name: 'content_generation_jobs',
    table: 'content_generation_jobs',
    fixture: () =>
      insertReturningId(`insert into public.content_generation_jobs (custom_topic) values ('Matrix job') returning id`),
    insert: () => ({ custom_topic: 'New job' }),
    update: {
      patch: () => ({ error_message: unique('error') }),
      stored: columnEquals('content_generation_jobs', 'error_message'),
    },
    allowed: { select: admins, insert: admins, update: admins, delete: admins },
  },
  {
    name: 'report_requests',
    table: 'report_requests',
    fixture: () =>
      insertReturningId(
        `insert into public.report_requests (full_name, email) values ('Matrix Lead', 'lead@example.com') returning id`,
      ),
    insert: () => ({ full_name: 'Visitor', email: 'visitor@example.com' }),
    update: { patch: () => ({ notes: unique('note') }), stored: columnEquals('report_requests', 'notes') },
    // leads arrive only through the request-report function (service role); admins
    // work them (read, update, delete) but do not type them in
    softDelete: true,
    allowed: { select: admins, insert: ['service'], update: admins, delete: admins },
  },
  {
    name: 'newsletter_subscriptions',
    table: 'newsletter_subscriptions',
    fixture: () =>
      insertReturningId(`insert into public.newsletter_subscriptions (email) values ($1) returning id`, [
        `${unique('sub')}@example.com`,
      ]),
    insert: () => ({ email: `${unique('new-sub')}@example.com` }),
    update: {
      patch: () => ({ email: `${unique('changed')}@example.com` }),
      stored: columnEquals('newsletter_subscriptions', 'email'),
    },
    // sign-ups only through the newsletter-subscribe function (double opt-in): security issue, finding 8
    allowed: { select: admins, insert: ['service'], update: ['service'], delete: admins },
  },
  {
    name: 'zip_market_benchmarks',
    table: 'zip_market_benchmarks',
    key: 'zip_code',
    fixture: async () => {
      const zip = String(10000 + Math.floor(Math.random() * 89999))
      await sql(
        `insert into public.zip_market_benchmarks (zip_code, period_end) values ($1, '2025-09-30')
                 on conflict (zip_code) do nothing`,
        [zip],
      )
      return zip
    },
    insert: () => ({ zip_code: String(10000 + Math.floor(Math.random() * 89999)), period_end: '2025-09-30' }),
    update: {
      patch: () => ({ city: unique('City') }),
      stored: columnEquals('zip_market_benchmarks', 'city', 'zip_code'),
    },
    allowed: { select: everyone, insert: ['service'], update: ['service'], delete: ['service'] },
  },
  {
    // derived by refresh_agent_metrics(); a made-up ZIP per row so the key picks exactly one. The select cases run
    // first and create the agent the insert case reuses.
    name: 'agent_zip_sales',
    table: 'agent_zip_sales',
    rebuiltByRefresh: true,
    key: 'zip_code',
    fixture: async () => {
      zipSalesAgentId ||= await data.agent({ name: 'Matrix ZIP Agent' })
      const zip = unique('zip')
      await sql(
        `insert into public.agent_zip_sales (zip_code, agent_id, closed_sales, sales_volume, last_close_date)
                 values ($1, $2, 1, 100000, current_date)`,
        [zip, zipSalesAgentId],
      )
      return zip
    },
    insert: () => ({
      zip_code: unique('zip'),
      agent_id: zipSalesAgentId,
      closed_sales: 1,
      sales_volume: 100000,
      last_close_date: '2026-01-01',
    }),
    update: {
      patch: () => ({ closed_sales: Math.floor(Math.random() * 1000) + 2 }),
      stored: columnEquals('agent_zip_sales', 'closed_sales', 'zip_code'),
    },
    allowed: { select: everyone, insert: ['service'], update: ['service'], delete: ['service'] },
  },
  {
    // one row per sale and agent role, derived by triggers on properties; visitors see sales only through bounded
    // per-agent functions. Each fixture is a co-buyer agent named by MLS id on a listing of its own; the inserts go
    // to one more listing, a different role each (a sale has one row per role). The select cases run first.
    name: 'transaction_sides',
    table: 'transaction_sides',
    fixture: async () => {
      sidesInsertPropertyId ||= await data.sale({ address: '4 Matrix Sides Way', standardStatus: null })
      const propertyId = await data.sale({ address: '3 Matrix Sides Way', standardStatus: null })
      return insertReturningId(
        `insert into public.transaction_sides (property_id, role, agent_mls_id) values ($1, 'co_buyer', $2) returning id::text`,
        [propertyId, unique('matrix-mls')],
      )
    },
    insert: () => ({
      property_id: sidesInsertPropertyId,
      role: ['list', 'co_list', 'buyer', 'co_buyer'][sidesInsertRole++ % 4],
      agent_mls_id: unique('matrix-inserted'),
    }),
    update: {
      patch: () => ({ office_name: unique('Office') }),
      stored: columnEquals('transaction_sides', 'office_name'),
    },
    allowed: { select: admins, insert: admins, update: admins, delete: admins },
  },
  {
    // written by refresh_agent_metrics(); anyone reads
    name: 'agent_figures',
    table: 'agent_figures',
    rebuiltByRefresh: true,
    key: 'agent_id',
    fixture: async () => {
      const agentId = await data.agent({ name: 'Matrix Figures Agent' })
      figuresAgentId ||= await data.agent({ name: 'Matrix Figures Insert Agent' })
      await sql(
        `insert into public.agent_figures (agent_id, window_start, window_end, data_date, last_close_date, total_sales, total_sides, total_volume)
         values ($1, '2024-01-01', '2025-12-31', '2025-12-31', '2025-12-31', 1, 1, 100000)`,
        [agentId],
      )
      return agentId
    },
    insert: () => ({
      agent_id: figuresAgentId,
      window_start: '2024-01-01',
      window_end: '2025-12-31',
      data_date: '2025-12-31',
      last_close_date: '2025-12-31',
      total_sales: 1,
      total_sides: 1,
      total_volume: 1,
    }),
    update: {
      patch: () => ({ listing_sales: Math.floor(Math.random() * 1000) + 2 }),
      stored: columnEquals('agent_figures', 'listing_sales', 'agent_id'),
    },
    allowed: { select: everyone, insert: ['service'], update: ['service'], delete: ['service'] },
  },
  {
    // written by refresh_agent_metrics(); anyone reads; a made-up ZIP per row
    name: 'zip_sales_coverage',
    table: 'zip_sales_coverage',
    rebuiltByRefresh: true,
    key: 'zip_code',
    fixture: async () => {
      const zip = unique('zip')
      await sql(
        `insert into public.zip_sales_coverage (zip_code, closed_sales, first_close_date, last_close_date, window_start, window_end, data_date)
         values ($1, 1, '2025-01-01', '2025-01-01', '2024-01-01', '2025-12-31', '2025-01-01')`,
        [zip],
      )
      return zip
    },
    insert: () => ({
      zip_code: unique('zip'),
      closed_sales: 1,
      first_close_date: '2025-01-01',
      last_close_date: '2025-01-01',
      window_start: '2024-01-01',
      window_end: '2025-12-31',
      data_date: '2025-01-01',
    }),
    update: {
      patch: () => ({ closed_sales: Math.floor(Math.random() * 1000) + 2 }),
      stored: columnEquals('zip_sales_coverage', 'closed_sales', 'zip_code'),
    },
    allowed: { select: everyone, insert: ['service'], update: ['service'], delete: ['service'] },
  },
  {
    // one row per metrics refresh; anyone reads
    name: 'figures_refreshes',
    table: 'figures_refreshes',
    fixture: () =>
      insertReturningId(
        `insert into public.figures_refreshes (methodology_version, refreshed_at) values ('matrix', now() - interval '10 years') returning id::text`,
      ),
    insert: () => ({ methodology_version: 'matrix', refreshed_at: '2000-01-01T00:00:00Z' }),
    update: {
      patch: () => ({ closed_sales: Math.floor(Math.random() * 1000) + 2 }),
      stored: columnEquals('figures_refreshes', 'closed_sales'),
    },
    allowed: { select: everyone, insert: ['service'], update: ['service'], delete: ['service'] },
  },
  {
    // the site build's page keys: written only by the change-tracking triggers (here a made-up agent id, as a deleted
    // agent's row is), readable by anyone
    name: 'agent_page_versions',
    table: 'agent_page_versions',
    key: 'agent_id',
    fixture: async () => {
      const [row] = await sql<{ agent_id: string }>(
        `insert into public.agent_page_versions (agent_id, version) values (gen_random_uuid(), 1) returning agent_id`,
      )
      return row!.agent_id
    },
    insert: () => ({ agent_id: crypto.randomUUID(), version: 2 }),
    update: {
      patch: () => ({ version: Math.floor(Math.random() * 1000) + 2 }),
      stored: columnEquals('agent_page_versions', 'version', 'agent_id'),
    },
    allowed: { select: everyone, insert: [], update: [], delete: [] },
  },
  {
    // the ZIP pages' keys and places: written only by the change-tracking triggers, readable by anyone
    name: 'zip_page_versions',
    table: 'zip_page_versions',
    key: 'zip_code',
    fixture: async () => {
      const zip = unique('zip')
      await sql(`insert into public.zip_page_versions (zip_code, version, city_version) values ($1, 1, 1)`, [zip])
      return zip
    },
    insert: () => ({ zip_code: unique('zip'), version: 2 }),
    update: {
      patch: () => ({ version: Math.floor(Math.random() * 1000) + 2 }),
      stored: columnEquals('zip_page_versions', 'version', 'zip_code'),
    },
    allowed: { select: everyone, insert: [], update: [], delete: [] },
  },
  {
    // the city a ZIP page left: written only by the trigger on zip_page_versions, readable by anyone
    name: 'zip_page_moves',
    table: 'zip_page_moves',
    key: 'zip_code',
    fixture: async () => {
      const zip = unique('zip')
      await sql(`insert into public.zip_page_moves (zip_code, version, city, state) values ($1, 1, 'Matrix', 'MA')`, [
        zip,
      ])
      return zip
    },
    insert: () => ({ zip_code: unique('zip'), version: 2, city: 'Matrix', state: 'MA' }),
    update: {
      patch: () => ({ city: unique('city') }),
      stored: columnEquals('zip_page_moves', 'city', 'zip_code'),
    },
    allowed: { select: everyone, insert: [], update: [], delete: [] },
  },
  {
    // the name search's dictionary: kept by the triggers on agents; only the search (service_role) reads it
    name: 'agent_name_tokens',
    table: 'agent_name_tokens',
    key: 'token',
    fixture: async () => {
      const token = unique('matrixtoken')
      await sql(`insert into public.agent_name_tokens (token) values ($1)`, [token])
      return token
    },
    insert: () => ({ token: unique('matrixinserted') }),
    // the token is the only column: an update renames it, stored when the new token exists
    update: {
      patch: () => ({ token: unique('matrixpatched') }),
      stored: async (_key, patch) =>
        (await sql(`select 1 from public.agent_name_tokens where token = $1`, [patch.token])).length === 1,
    },
    allowed: { select: ['service'], insert: ['service'], update: ['service'], delete: ['service'] },
  },
  {
    // the name search's typo index (deletion strings of the dictionary's tokens): kept by triggers on
    // agent_name_tokens; only the search (service_role) reads it
    name: 'agent_name_token_deletions',
    table: 'agent_name_token_deletions',
    key: 'variant',
    fixture: async () => {
      const variant = unique('matrixvariant')
      await sql(`insert into public.agent_name_token_deletions (variant, token) values ($1, $1)`, [variant])
      return variant
    },
    insert: () => ({ variant: unique('matrixvariantinserted'), token: unique('matrixvariantinserted') }),
    update: {
      patch: () => ({ token: unique('matrixvariantpatched') }),
      stored: async (_key, patch) =>
        (await sql(`select 1 from public.agent_name_token_deletions where token = $1`, [patch.token])).length === 1,
    },
    allowed: { select: ['service'], insert: ['service'], update: ['service'], delete: ['service'] },
  },
  {
    // the name search's postings, same rules; the select cases run first and create the agent the others reuse
    name: 'agent_name_postings',
    table: 'agent_name_postings',
    key: 'token',
    fixture: async () => {
      namePostingAgentId ||= await data.agent({ name: 'Matrix Posting Agent' })
      const token = unique('matrixposting')
      await sql(
        `insert into public.agent_name_postings (token, agent_id, total_sales, name) values ($1, $2, 0, 'Matrix Posting Agent')`,
        [token, namePostingAgentId],
      )
      return token
    },
    insert: () => ({ token: unique('matrixinserted'), agent_id: namePostingAgentId, total_sales: 0, name: 'Inserted' }),
    update: {
      patch: () => ({ total_sales: Math.floor(Math.random() * 1000) + 2 }),
      stored: columnEquals('agent_name_postings', 'total_sales', 'token'),
    },
    allowed: { select: ['service'], insert: ['service'], update: ['service'], delete: ['service'] },
  },
  {
    name: 'reso_sync_state',
    table: 'reso_sync_state',
    key: 'source',
    fixture: async () => {
      const source = unique('matrix-feed')
      await sql(`insert into public.reso_sync_state (source, resource) values ($1, 'Property')`, [source])
      return source
    },
    insert: () => ({ source: unique('matrix-new-feed'), resource: 'Property' }),
    update: {
      patch: () => ({ last_error: unique('error') }),
      stored: columnEquals('reso_sync_state', 'last_error', 'source'),
    },
    allowed: { select: admins, insert: ['service'], update: ['service'], delete: ['service'] },
  },
  {
    name: 'import_runs',
    table: 'import_runs',
    fixture: () =>
      insertReturningId(
        `insert into public.import_runs (source, file_name, file_sha256, file_bytes, status, finished_at)
         values ('matrix-feed', 'matrix.csv', repeat('a', 64), 10, 'succeeded', now()) returning id`,
      ),
    insert: () => ({
      source: unique('matrix-feed'),
      file_name: 'inserted.csv',
      file_sha256: 'b'.repeat(64),
      file_bytes: 1,
    }),
    update: { patch: () => ({ error: unique('error') }), stored: columnEquals('import_runs', 'error') },
    allowed: { select: admins, insert: ['service'], update: ['service'], delete: ['service'] },
  },
  {
    name: 'search_queries',
    table: 'search_queries',
    fixture: () =>
      insertReturningId(
        `insert into public.search_queries (query, search_type) values ('02139', 'zipcode') returning id`,
      ),
    insert: () => ({ query: 'Jane', search_type: 'agent' }),
    update: {
      patch: () => ({ results_count: Math.floor(Math.random() * 1000) + 1 }),
      stored: columnEquals('search_queries', 'results_count'),
    },
    allowed: { select: admins, insert: ['service'], update: ['service'], delete: ['service'] },
  },
  {
    name: 'site_builds',
    table: 'site_builds',
    fixture: () =>
      insertReturningId(`insert into public.site_builds (trigger_reason) values ('rls matrix') returning id`),
    insert: () => ({ trigger_reason: 'inserted by the matrix' }),
    update: {
      patch: () => ({ trigger_reason: unique('reason') }),
      stored: columnEquals('site_builds', 'trigger_reason'),
    },
    allowed: { select: admins, insert: ['service'], update: ['service'], delete: ['service'] },
  },
  {
    // anyone reads the redirects of live posts (the site builds them); only the trigger writes, admins may remove one
    name: 'blog_post_redirects',
    table: 'blog_post_redirects',
    key: 'old_slug',
    fixture: async () => {
      const slug = unique('matrix-old-slug')
      await sql(`insert into public.blog_post_redirects (old_slug, post_id) values ($1, $2)`, [
        slug,
        await livePostFixture(),
      ])
      return slug
    },
    insert: () => ({ old_slug: unique('matrix-new-old-slug'), post_id: livePostId }),
    update: {
      patch: () => ({ created_at: new Date(Date.UTC(2001, 0, 1 + Math.floor(Math.random() * 300))).toISOString() }),
      stored: async (slug, patch) =>
        (
          await sql(`select 1 from public.blog_post_redirects where old_slug = $1 and created_at = $2`, [
            slug,
            patch.created_at,
          ])
        ).length === 1,
    },
    allowed: { select: everyone, insert: ['service'], update: ['service'], delete: admins },
  },
  {
    name: 'blog_post_revisions',
    table: 'blog_post_revisions',
    fixture: async () =>
      insertReturningId(
        `insert into public.blog_post_revisions (post_id, status, snapshot) values ($1, 'draft', '{}') returning id::text`,
        [await livePostFixture()],
      ),
    insert: () => ({ post_id: livePostId, status: 'draft', snapshot: {} }),
    update: { patch: () => ({ status: 'published' }), stored: columnEquals('blog_post_revisions', 'status') },
    allowed: { select: admins, insert: ['service'], update: ['service'], delete: ['service'] },
  },
  {
    name: 'lead_notes',
    table: 'lead_notes',
    fixture: () =>
      insertReturningId(
        `insert into public.lead_notes (report_request_id, body) values ($1, 'matrix note') returning id::text`,
        [leadId],
      ),
    insert: () => ({ report_request_id: leadId, body: unique('note') }),
    update: { patch: () => ({ body: unique('edited note') }), stored: columnEquals('lead_notes', 'body') },
    allowed: { select: admins, insert: admins, update: ['service'], delete: admins },
  },
  {
    name: 'rate_limit_hits',
    table: 'rate_limit_hits',
    key: 'key_hash',
    fixture: async () => {
      const hash = (await sql<{ h: string }>(`select encode(sha256(gen_random_uuid()::text::bytea), 'hex') as h`))[0]!.h
      await sql(
        `insert into public.rate_limit_hits (key_hash, window_start, window_seconds, expires_at, hits)
         values ($1, date_trunc('hour', now()), 3600, date_trunc('hour', now()) + interval '1 hour', 1)`,
        [hash],
      )
      return hash
    },
    insert: () => ({
      key_hash: crypto.randomUUID().replaceAll('-', '').padEnd(64, '0'),
      window_start: new Date().toISOString(),
      window_seconds: 60,
      expires_at: new Date(Date.now() + 60_000).toISOString(),
      hits: 1,
    }),
    update: {
      patch: () => ({ hits: Math.floor(Math.random() * 1000) + 2 }),
      stored: columnEquals('rate_limit_hits', 'hits', 'key_hash'),
    },
    allowed: { select: ['service'], insert: ['service'], update: ['service'], delete: ['service'] },
  },
  {
    name: 'search_days',
    table: 'search_days',
    key: 'search_type',
    fixture: async () => {
      const type = unique('matrix-type')
      await sql(`insert into public.search_days (day, search_type, searches) values ('2001-01-01', $1, 1)`, [type])
      return type
    },
    insert: () => ({ day: '2001-01-02', search_type: unique('matrix-new-type'), searches: 1 }),
    update: {
      patch: () => ({ searches: Math.floor(Math.random() * 1000) + 2 }),
      stored: columnEquals('search_days', 'searches', 'search_type'),
    },
    allowed: { select: admins, insert: ['service'], update: ['service'], delete: ['service'] },
  },
  {
    name: 'page_view_days',
    table: 'page_view_days',
    key: 'path',
    fixture: async () => {
      const path = `/${unique('matrix-days')}`
      await sql(
        `insert into public.page_view_days (day, path, device_class, views, visitors) values ('2001-01-01', $1, 'desktop', 1, 1)`,
        [path],
      )
      return path
    },
    insert: () => ({
      day: '2001-01-02',
      path: `/${unique('matrix-new-days')}`,
      device_class: 'desktop',
      views: 1,
      visitors: 1,
    }),
    update: {
      patch: () => ({ views: Math.floor(Math.random() * 1000) + 2 }),
      stored: columnEquals('page_view_days', 'views', 'path'),
    },
    allowed: { select: admins, insert: ['service'], update: ['service'], delete: ['service'] },
  },
  {
    name: 'audit_log',
    table: 'audit_log',
    fixture: () =>
      insertReturningId(
        `insert into public.audit_log (table_name, row_id, action) values ('matrix', $1, 'update') returning id::text`,
        [unique('matrix-row')],
      ),
    insert: () => ({ table_name: 'matrix', row_id: unique('matrix-insert'), action: 'insert' }),
    update: { patch: () => ({ row_id: unique('matrix-edit') }), stored: columnEquals('audit_log', 'row_id') },
    // append-only: the trigger writes, admins read, nobody changes it through the API
    allowed: { select: admins, insert: [], update: [], delete: [] },
  },
  {
    name: 'page_views',
    table: 'page_views',
    fixture: () =>
      insertReturningId(
        `insert into public.page_views (path, device_class, visitor_hash) values ('/matrix', 'desktop', repeat('e', 64)) returning id`,
      ),
    insert: () => ({ path: '/matrix-new', device_class: 'mobile', visitor_hash: 'f'.repeat(64) }),
    update: { patch: () => ({ path: `/${unique('matrix')}` }), stored: columnEquals('page_views', 'path') },
    allowed: { select: admins, insert: ['service'], update: ['service'], delete: ['service'] },
  },
  {
    // future days only: analytics_daily_salt() deletes every day before today whenever a page view arrives
    name: 'analytics_salts',
    table: 'analytics_salts',
    key: 'day',
    fixture: async () => {
      const rows = await sql<{ day: string }>(
        `insert into public.analytics_salts (day, salt) values (date '2900-01-01' + (random() * 36000)::int, repeat('1', 64))
         on conflict do nothing returning day::text`,
      )
      return rows[0]!.day
    },
    insert: () => ({
      day: `29${10 + Math.floor(Math.random() * 89)}-0${1 + Math.floor(Math.random() * 9)}-1${Math.floor(Math.random() * 9)}`,
      salt: '2'.repeat(64),
    }),
    update: { patch: () => ({ salt: '3'.repeat(64) }), stored: columnEquals('analytics_salts', 'salt', 'day') },
    allowed: { select: ['service'], insert: ['service'], update: ['service'], delete: ['service'] },
  },
  {
    // the heart: each user's own rows; operators do not read them
    name: 'saved_agents',
    table: 'saved_agents',
    key: 'agent_id',
    owned: true,
    fixture: async () => {
      const agent = await data.agent({ name: 'Matrix Saved Agent' })
      await sql(`insert into public.saved_agents (user_id, agent_id) values ($1, $2)`, [ownerId, agent])
      return agent
    },
    beforeInsert: async () => {
      savedAgentId ||= await data.agent({ name: 'Matrix Saved Agent' })
      await sql(`delete from public.saved_agents where user_id = $1 and agent_id = $2`, [ownerId, savedAgentId])
    },
    insert: () => ({ user_id: ownerId, agent_id: savedAgentId }),
    update: {
      patch: () => ({ created_at: new Date(Date.UTC(2001, 0, 1 + Math.floor(Math.random() * 300))).toISOString() }),
      stored: async (agent, patch) =>
        (
          await sql(`select 1 from public.saved_agents where agent_id = $1 and created_at = $2`, [
            agent,
            patch.created_at,
          ])
        ).length === 1,
    },
    allowed: {
      select: ['owner', 'service'],
      insert: ['owner', 'service'],
      update: ['service'],
      delete: ['owner', 'service'],
    },
  },
  {
    // the compare tray of a signed-in user: one row per user
    name: 'compare_lists',
    table: 'compare_lists',
    key: 'user_id',
    owned: true,
    fixture: async () => {
      await sql(`delete from public.compare_lists where user_id = $1`, [ownerId])
      await sql(`insert into public.compare_lists (user_id, agent_ids) values ($1, array[gen_random_uuid()])`, [
        ownerId,
      ])
      return ownerId
    },
    beforeInsert: async () => {
      await sql(`delete from public.compare_lists where user_id = $1`, [ownerId])
    },
    insert: () => ({ user_id: ownerId, agent_ids: [crypto.randomUUID()] }),
    update: {
      patch: () => ({ agent_ids: [crypto.randomUUID(), crypto.randomUUID()] }),
      stored: async (user, patch) =>
        (
          await sql(`select 1 from public.compare_lists where user_id = $1 and agent_ids = $2::uuid[]`, [
            user,
            patch.agent_ids,
          ])
        ).length === 1,
    },
    allowed: {
      select: ['owner', 'service'],
      insert: ['owner', 'service'],
      update: ['owner', 'service'],
      delete: ['owner', 'service'],
    },
  },
  {
    // hashes of unsubscribed addresses: only the functions (service role) read and write them
    name: 'email_suppressions',
    table: 'email_suppressions',
    key: 'email_hash',
    fixture: async () => {
      const rows = await sql<{ email_hash: string }>(
        `insert into public.email_suppressions (email_hash, source) values (public.email_hash(gen_random_uuid()::text), 'link')
         returning email_hash`,
      )
      return rows[0]!.email_hash
    },
    insert: () => ({ email_hash: crypto.randomUUID().replaceAll('-', '').padEnd(64, 'a'), source: 'link' }),
    update: {
      patch: () => ({ source: 'one_click' }),
      stored: columnEquals('email_suppressions', 'source', 'email_hash'),
    },
    allowed: { select: ['service'], insert: ['service'], update: ['service'], delete: ['service'] },
  },
  {
    // the agent's own profile: its owner edits bio, specialties and languages (the trigger refuses other columns)
    name: 'agents (the profile its owner claimed)',
    table: 'agents',
    owned: true,
    fixture: () => ownedAgent(),
    insert: () => ({ name: 'Inserted Agent' }),
    update: { patch: () => ({ bio: unique('owner-bio') }), stored: columnEquals('agents', 'bio') },
    allowed: {
      select: [...everyone, 'owner'],
      insert: admins,
      update: ['owner', 'admin', 'service'],
      delete: admins,
    },
  },
  {
    // claims: written by the claim functions (service role) only; the claimant and administrators read them
    name: 'agent_claims',
    table: 'agent_claims',
    owned: true,
    fixture: async () => {
      const agent = await data.agent({ name: 'Matrix Claimed Agent' })
      return insertReturningId(
        `insert into public.agent_claims (agent_id, user_id, status, license_number) values ($1, $2, 'code_sent', 'LIC-1') returning id`,
        [agent, ownerId],
      )
    },
    beforeInsert: async () => {
      claimInsertAgentId = await data.agent({ name: 'Matrix Claim Insert Agent' })
    },
    insert: () => ({ agent_id: claimInsertAgentId, user_id: ownerId, status: 'rejected' }),
    update: {
      patch: () => ({ decision_reason: unique('reason') }),
      stored: columnEquals('agent_claims', 'decision_reason'),
    },
    allowed: {
      select: ['owner', 'admin', 'service'],
      insert: ['service'],
      update: ['service'],
      delete: ['service'],
    },
  },
  {
    // corrections: the owner files and withdraws; administrators read and decide through decide_agent_correction
    name: 'agent_corrections',
    table: 'agent_corrections',
    owned: true,
    fixture: async () =>
      insertReturningId(
        `insert into public.agent_corrections (agent_id, user_id, kind, listing_number, address, side)
         values ($1, $2, 'missing_sale', $3, '1 Matrix Way', 'listing') returning id`,
        [await ownedAgent(), ownerId, unique('MLS')],
      ),
    beforeInsert: async () => {
      correctionInsertAgentId = await ownedAgent()
    },
    insert: (role) => ({
      agent_id: correctionInsertAgentId,
      ...(role === 'service' ? { user_id: ownerId } : {}),
      kind: 'missing_sale',
      listing_number: unique('MLS'),
      address: '2 Matrix Way',
      side: 'buyer',
    }),
    // the owner's only change: withdrawing a pending correction
    update: { patch: () => ({ status: 'withdrawn' }), stored: columnEquals('agent_corrections', 'status') },
    allowed: {
      select: ['owner', 'admin', 'service'],
      insert: ['owner', 'service'],
      update: ['owner', 'service'],
      delete: ['service'],
    },
  },
  {
    // how the profile is shown: the owner asks and withdraws; administrators read and decide
    name: 'agent_visibility_requests',
    table: 'agent_visibility_requests',
    owned: true,
    fixture: async () =>
      insertReturningId(
        `insert into public.agent_visibility_requests (agent_id, user_id, hide_phone, hide_email, noindex)
         values ($1, $2, true, false, false) returning id`,
        [await ownedAgent(), ownerId],
      ),
    beforeInsert: async () => {
      visibilityInsertAgentId = await ownedAgent()
    },
    insert: (role) => ({
      agent_id: visibilityInsertAgentId,
      ...(role === 'service' ? { user_id: ownerId } : {}),
      hide_phone: true,
      hide_email: true,
      noindex: false,
    }),
    update: { patch: () => ({ status: 'withdrawn' }), stored: columnEquals('agent_visibility_requests', 'status') },
    allowed: {
      select: ['owner', 'admin', 'service'],
      insert: ['owner', 'service'],
      update: ['owner', 'service'],
      delete: ['service'],
    },
  },
  {
    name: "user_roles (another user's row)",
    table: 'user_roles',
    key: 'user_id',
    fixture: async () => {
      const rows = await sql<{ id: string }>(
        `insert into auth.users (id, email) values (gen_random_uuid(), $1) returning id`,
        [`${unique('role-holder')}@example.com`],
      )
      await sql(`insert into public.user_roles (user_id, role) values ($1, 'admin')`, [rows[0]!.id])
      return rows[0]!.id
    },
    insert: () => ({ user_id: otherUserId, role: 'admin' }),
    update: {
      patch: () => ({ user_id: otherUserId }),
      stored: async () => (await sql(`select 1 from public.user_roles where user_id = $1`, [otherUserId])).length === 1,
    },
    allowed: { select: ['service'], insert: ['service'], update: ['service'], delete: ['service'] },
  },
]

const clients = {} as Record<Role, SupabaseClient>

beforeAll(async () => {
  clients.anon = anonClient()
  clients.user = (await signedInClient()).client
  clients.admin = (await signedInClient({ admin: true })).client
  clients.service = serviceClient()
  const owner = await signedInClient()
  clients.owner = owner.client
  ownerId = owner.userId
  livePostId = await livePostFixture()
  leadId = await insertReturningId(
    `insert into public.report_requests (full_name, email) values ('Matrix Lead', $1) returning id`,
    [`${unique('matrix-lead')}@example.com`],
  )
})

afterAll(async () => {
  await sql('delete from public.report_requests where id = $1', [leadId])
  await data.cleanup()
})

async function attempt(tableCase: TableCase, role: Role, operation: Operation): Promise<boolean> {
  if (!tableCase.rebuiltByRefresh) return attemptNow(tableCase, role, operation)
  // the session-level form of the transaction lock refresh_agent_metrics() takes: a refresh waits until the check ends
  const lock = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
  await lock.connect()
  try {
    await lock.query(`select pg_advisory_lock(hashtext('public.refresh_agent_metrics'))`)
    return await attemptNow(tableCase, role, operation)
  } finally {
    await lock.end()
  }
}

/** The last API error an attempt met, for the failure message (null when it met none). */
let lastError: { code?: string; message: string } | null = null

/**
 * Runs one API call, again (three times at most) when Postgres aborted it as a deadlock: test files run side by side,
 * and two statements whose triggers update page-version rows (say this delete and another file's clean-up) can take
 * them in opposite orders; the aborted one changed nothing, and as the Postgres manual advises it is run again (the
 * same rule as tests/support/sql.ts). Any other error is kept in `lastError` and returned.
 */
async function retryingDeadlocks<R extends { error: { code?: string; message: string } | null }>(
  call: () => PromiseLike<R>,
): Promise<R> {
  for (let attempt = 1; ; attempt++) {
    const result = await call()
    lastError = result.error
    if (result.error?.code !== '40P01' || attempt >= 3) return result
  }
}

async function attemptNow(tableCase: TableCase, role: Role, operation: Operation): Promise<boolean> {
  lastError = null
  const client = clients[role]
  const key = tableCase.key ?? 'id'
  const table = tableCase.table as never
  if (operation === 'insert') {
    if (tableCase.table === 'user_roles') {
      otherUserId = (
        await sql<{ id: string }>(`insert into auth.users (id, email) values (gen_random_uuid(), $1) returning id`, [
          `${unique('other')}@example.com`,
        ])
      )[0]!.id
    }
    await tableCase.beforeInsert?.()
    const { error } = await retryingDeadlocks(() => client.from(table).insert(tableCase.insert(role) as never))
    return error === null
  }
  const id = await tableCase.fixture()
  if (operation === 'select') {
    const { data, error } = await retryingDeadlocks(() => client.from(table).select(key).eq(key, id))
    return error === null && (data as unknown[]).length === 1
  }
  if (operation === 'update') {
    if (tableCase.table === 'user_roles') {
      otherUserId = (
        await sql<{ id: string }>(`insert into auth.users (id, email) values (gen_random_uuid(), $1) returning id`, [
          `${unique('other')}@example.com`,
        ])
      )[0]!.id
    }
    const patch = tableCase.update.patch()
    const { error } = await retryingDeadlocks(() =>
      client
        .from(table)
        .update(patch as never)
        .eq(key, id),
    )
    return error === null && (await tableCase.update.stored(id, patch))
  }
  const { error } = await retryingDeadlocks(() => client.from(table).delete().eq(key, id))
  const live = tableCase.softDelete ? ' and deleted_at is null' : ''
  const remaining = await sql(`select 1 from public.${tableCase.table} where ${key} = $1${live}`, [id])
  return error === null && remaining.length === 0
}

describe.each(cases)('$name', (tableCase) => {
  const operations: Operation[] = ['select', 'insert', 'update', 'delete']
  const caseRoles: Role[] = tableCase.owned ? [...roles, 'owner'] : roles
  it.each(operations.flatMap((operation) => caseRoles.map((role) => ({ operation, role }))))(
    '$operation as $role',
    async ({ operation, role }) => {
      const expected = tableCase.allowed[operation].includes(role)
      expect(
        await attempt(tableCase, role, operation),
        // the API's error, if any, names why (evaluated after the attempt)
        `${role} ${operation} on ${tableCase.name} should be ${expected ? 'allowed' : 'refused'}` +
          (lastError ? ` (API error ${lastError.code ?? ''}: ${lastError.message})` : ''),
      ).toBe(expected)
    },
  )
})

describe('coverage', () => {
  it('has a case for every table of the public schema, and every one has RLS on', async () => {
    const tables = await sql<{ relname: string; relrowsecurity: boolean }>(
      `select c.relname, c.relrowsecurity from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1`,
    )
    expect(tables.filter((table) => !table.relrowsecurity).map((table) => table.relname)).toEqual([])
    const covered = new Set(cases.map((tableCase) => tableCase.table))
    expect(tables.map((table) => table.relname).filter((name) => !covered.has(name))).toEqual([])
  })
})

describe('report request validation', () => {
  it('refuses a bad email in the table itself, naming the check (the function validates first)', async () => {
    const { error } = await serviceClient()
      .from('report_requests')
      .insert({ full_name: 'Visitor', email: 'not-an-email' })
    expect(error!.code).toBe('23514')
    expect(error!.message).toContain('report_requests')
  })

  it('refuses any visitor insert, CRM fields or not', async () => {
    const { error } = await anonClient()
      .from('report_requests')
      .insert({ full_name: 'Visitor', email: 'v@example.com', status: 'qualified' } as never)
    expect(error).toMatchObject({ code: '42501', message: 'permission denied for table report_requests' })
  })
})
