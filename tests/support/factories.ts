/**
 * The one way tests write listing and content data: agents, sales (the properties rows, whose transaction sides the
 * properties triggers write from the RESO agent fields, as for an import), blog posts, and users (re-exported from
 * ./env.ts). Benches write through the same row writers (`insertAgents`, `insertSales`, `insertPosts` take any `Db`).
 *
 * Each integration test file owns its data through a `testData(file)` namespace: every row it creates is recorded
 * and removed by `cleanup()`, names and slugs carry the file's tag, and ZIP codes come from `zip()`, which hands out
 * codes no other row uses. So files can run in any order and in parallel against the one database of a run.
 *
 * Writes are superuser SQL (they bypass RLS, as an import or the admin's service role would); each writer is one
 * statement however many rows it gets, so statement-level triggers (page versions, site webhooks) fire once.
 * Money is USD, durations are days, dates are YYYY-MM-DD.
 */
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { createConfirmedUser, signedInClient, uniqueEmail } from './env.ts'
import { sql, sqlAt } from './sql.ts'

export { createConfirmedUser, signedInClient, uniqueEmail }

/** Runs one statement and answers its rows: tests/support/sql.ts's `sql`, or `clientDb(client)` in a bench. */
export type Db = <T extends pg.QueryResultRow = Record<string, unknown>>(
  text: string,
  values?: unknown[],
) => Promise<T[]>

/** A `Db` on an open pg client (benches and scripts hold one connection for a whole run). */
export function clientDb(client: pg.ClientBase): Db {
  return async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
    (await client.query<T>(text, values)).rows
}

/** A `Db` on another database of the test cluster (a test's own fresh database), one connection per statement. */
export function dbAt(databaseUrl: string): Db {
  return <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) => sqlAt<T>(databaseUrl, text, values)
}

const defaultDb: Db = sql

/** An agent row; omitted fields stay null (review_count and total_sales 0, as their column defaults). */
export interface AgentInput {
  id?: string
  name: string
  /** ListAgentMlsId of the agent's sales (agents.mls_id). */
  mlsId?: string | null
  /** ListAgentKey of the agent's sales (agents.member_key). */
  memberKey?: string | null
  brokerage?: string | null
  phone?: string | null
  email?: string | null
  /** 0.0-5.0 stars. */
  rating?: number | null
  reviewCount?: number
  licenseNumber?: string | null
  yearsExperience?: number | null
  bio?: string | null
  photoUrl?: string | null
  totalSales?: number
  city?: string | null
  state?: string | null
  zip?: string | null
}

/**
 * Writes `agents` in one statement (the agents' insert trigger writes their name-search postings).
 * @returns their ids, in input order. @throws Postgres' error (a duplicate id, a value a check refuses).
 */
export async function insertAgents(agents: AgentInput[], db: Db = defaultDb): Promise<string[]> {
  if (agents.length === 0) return []
  const ids = agents.map((agent) => agent.id ?? randomUUID())
  const column = <K extends keyof AgentInput>(key: K) => agents.map((agent) => agent[key] ?? null)
  await db(
    `insert into public.agents (id, name, mls_id, member_key, brokerage, phone, email, rating, review_count,
                                license_number, years_experience, bio, photo_url, total_sales, city, state, zip_code)
     select id, name, mls_id, member_key, brokerage, phone, email, rating, coalesce(review_count, 0),
            license_number, years_experience, bio, photo_url, coalesce(total_sales, 0), city, state, zip_code
       from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::numeric[],
                   $9::integer[], $10::text[], $11::integer[], $12::text[], $13::text[], $14::integer[], $15::text[],
                   $16::text[], $17::text[])
            as u(id, name, mls_id, member_key, brokerage, phone, email, rating, review_count, license_number,
                 years_experience, bio, photo_url, total_sales, city, state, zip_code)`,
    [
      ids,
      column('name'),
      column('mlsId'),
      column('memberKey'),
      column('brokerage'),
      column('phone'),
      column('email'),
      column('rating'),
      column('reviewCount'),
      column('licenseNumber'),
      column('yearsExperience'),
      column('bio'),
      column('photoUrl'),
      column('totalSales'),
      column('city'),
      column('state'),
      column('zip'),
    ],
  )
  return ids
}

/**
 * A sale (a properties row). The RESO agent fields name who took each side; the properties triggers turn them into
 * transaction_sides rows (list side from `agentId`/ListAgent*, co-list, buyer and co-buyer from their fields).
 */
export interface SaleInput {
  id?: string
  /** The listing agent's row (properties.agent_id); null for a sale of no known agent. */
  agentId?: string | null
  address: string
  city?: string | null
  state?: string | null
  zip?: string | null
  /** USD. */
  listPrice?: number | null
  /** ClosePrice, USD. */
  salePrice?: number | null
  /** CloseDate as YYYY-MM-DD; or give `daysAgo`. */
  saleDate?: string | null
  /** CloseDate as days before the database's current_date. */
  daysAgo?: number
  /** DaysOnMarket. */
  daysOnMarket?: number | null
  /** StandardStatus; default 'Closed' (null for a listing without one). */
  standardStatus?: string | null
  /** The legacy status column ('sold'...); default null. */
  status?: string | null
  propertyType?: string | null
  bedrooms?: number | null
  bathrooms?: number | null
  squareFeet?: number | null
  latitude?: number | null
  longitude?: number | null
  /** ListingContractDate as YYYY-MM-DD. */
  listingContractDate?: string | null
  source?: string | null
  sourceRecordId?: string | null
  listAgentMlsId?: string | null
  listAgentKey?: string | null
  coListAgentMlsId?: string | null
  coListAgentKey?: string | null
  buyerAgentMlsId?: string | null
  buyerAgentKey?: string | null
  coBuyerAgentMlsId?: string | null
  coBuyerAgentKey?: string | null
}

/**
 * Writes `sales` in one statement; the properties triggers write their transaction sides and mark the pages they
 * change. @returns their ids, in input order. @throws Postgres' error.
 */
export async function insertSales(sales: SaleInput[], db: Db = defaultDb): Promise<string[]> {
  if (sales.length === 0) return []
  const ids = sales.map((sale) => sale.id ?? randomUUID())
  const column = <K extends keyof SaleInput>(key: K) => sales.map((sale) => sale[key] ?? null)
  await db(
    `insert into public.properties (id, agent_id, address, city, state, zip_code, list_price, sale_price, sale_date,
                                    days_on_market, standard_status, status, property_type, bedrooms, bathrooms,
                                    square_feet, latitude, longitude, listing_contract_date, source, source_record_id,
                                    list_agent_mls_id, list_agent_key, co_list_agent_mls_id, co_list_agent_key,
                                    buyer_agent_mls_id, buyer_agent_key, co_buyer_agent_mls_id, co_buyer_agent_key)
     select id, agent_id, address, city, state, zip_code, list_price, sale_price,
            coalesce(sale_date, current_date - days_ago), days_on_market, standard_status, status, property_type,
            bedrooms, bathrooms, square_feet, latitude, longitude, listing_contract_date, source, source_record_id,
            list_agent_mls_id, list_agent_key, co_list_agent_mls_id, co_list_agent_key, buyer_agent_mls_id,
            buyer_agent_key, co_buyer_agent_mls_id, co_buyer_agent_key
       from unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::numeric[],
                   $8::numeric[], $9::date[], $10::integer[], $11::integer[], $12::text[], $13::text[], $14::text[],
                   $15::integer[], $16::numeric[], $17::integer[], $18::numeric[], $19::numeric[], $20::date[],
                   $21::text[], $22::text[], $23::text[], $24::text[], $25::text[], $26::text[], $27::text[],
                   $28::text[], $29::text[], $30::text[])
            as u(id, agent_id, address, city, state, zip_code, list_price, sale_price, sale_date, days_ago,
                 days_on_market, standard_status, status, property_type, bedrooms, bathrooms, square_feet, latitude,
                 longitude, listing_contract_date, source, source_record_id, list_agent_mls_id, list_agent_key,
                 co_list_agent_mls_id, co_list_agent_key, buyer_agent_mls_id, buyer_agent_key, co_buyer_agent_mls_id,
                 co_buyer_agent_key)`,
    [
      ids,
      column('agentId'),
      column('address'),
      column('city'),
      column('state'),
      column('zip'),
      column('listPrice'),
      column('salePrice'),
      column('saleDate'),
      column('daysAgo'),
      column('daysOnMarket'),
      sales.map((sale) => (sale.standardStatus === undefined ? 'Closed' : sale.standardStatus)),
      column('status'),
      column('propertyType'),
      column('bedrooms'),
      column('bathrooms'),
      column('squareFeet'),
      column('latitude'),
      column('longitude'),
      column('listingContractDate'),
      column('source'),
      column('sourceRecordId'),
      column('listAgentMlsId'),
      column('listAgentKey'),
      column('coListAgentMlsId'),
      column('coListAgentKey'),
      column('buyerAgentMlsId'),
      column('buyerAgentKey'),
      column('coBuyerAgentMlsId'),
      column('coBuyerAgentKey'),
    ],
  )
  return ids
}

/** A blog post; omitted fields take the column defaults (content '', status 'draft'). */
export interface PostInput {
  id?: string
  title: string
  slug: string
  /** Sanitized HTML. */
  content?: string
  excerpt?: string | null
  /** 'draft' (default) or 'published'; a published post with a future publishedAt is scheduled. */
  status?: 'draft' | 'published'
  /** When it is (or goes) live; default now() for a published post, else null. */
  publishedAt?: Date | null
  location?: string | null
  metaDescription?: string | null
  categoryId?: string | null
}

/**
 * Writes `posts` in one statement (the posts' triggers record revisions and redirects and tell the site's build hook
 * about published ones). @returns their ids, in input order. @throws Postgres' error (a taken slug).
 */
export async function insertPosts(posts: PostInput[], db: Db = defaultDb): Promise<string[]> {
  if (posts.length === 0) return []
  const ids = posts.map((post) => post.id ?? randomUUID())
  const column = <K extends keyof PostInput>(key: K) => posts.map((post) => post[key] ?? null)
  await db(
    `insert into public.blog_posts (id, title, slug, content, excerpt, status, published_at, location,
                                    meta_description, category_id)
     select id, title, slug, coalesce(content, ''), excerpt, coalesce(status, 'draft'),
            case when published_unset and status = 'published' then now() else published_at end,
            location, meta_description, category_id
       from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[],
                   $8::boolean[], $9::text[], $10::text[], $11::uuid[])
            as u(id, title, slug, content, excerpt, status, published_at, published_unset, location,
                 meta_description, category_id)`,
    [
      ids,
      column('title'),
      column('slug'),
      column('content'),
      column('excerpt'),
      column('status'),
      posts.map((post) => post.publishedAt?.toISOString() ?? null),
      posts.map((post) => post.publishedAt === undefined),
      column('location'),
      column('metaDescription'),
      column('categoryId'),
    ],
  )
  return ids
}

/** Recomputes every agent's figures from the sales, as the importer does after a load. */
export async function refreshAgentMetrics(db: Db = defaultDb): Promise<void> {
  await db('select public.refresh_agent_metrics()')
}

/** A Date `days` days before now (negative: after now); for `publishedAt`. */
export function daysFromNow(days: number): Date {
  return new Date(Date.now() + days * 86_400_000)
}

const claimedZips = new Set<string>()

/**
 * A five-digit ZIP in 90000-98999 that no sale, agent or ZIP benchmark uses yet (and that this process has not handed
 * out before): fixture data there is the only data there.
 */
export async function unusedZip(db: Db = defaultDb): Promise<string> {
  for (;;) {
    const zip = String(90000 + Math.floor(Math.random() * 9000))
    if (claimedZips.has(zip)) continue
    const used = await db(
      `select 1 from public.properties where zip_code = $1
       union all select 1 from public.agents where zip_code = $1
       union all select 1 from public.zip_market_benchmarks where zip_code = $1 limit 1`,
      [zip],
    )
    if (used.length > 0) continue
    claimedZips.add(zip)
    return zip
  }
}

/** What a test file created through its namespace, removed by `cleanup()`. */
export interface TestData {
  /** `<file>-<base36 time><random>`: unique to this run of the file. */
  tag: string
  /** `<label> <tag>`: a name or title no other file uses. */
  unique(label: string): string
  /** `<prefix>-<tag>` in lowercase: a slug no other file uses. */
  slug(prefix: string): string
  /** A ZIP no other row uses (see `unusedZip`). */
  zip(): Promise<string>
  agents(agents: AgentInput[]): Promise<string[]>
  agent(agent: AgentInput): Promise<string>
  sales(sales: SaleInput[]): Promise<string[]>
  sale(sale: SaleInput): Promise<string>
  posts(posts: PostInput[]): Promise<string[]>
  post(post: PostInput): Promise<string>
  /** Deletes the file's posts, its agents' report requests, every sale of its agents or its ZIPs, and its agents. */
  cleanup(): Promise<void>
}

/**
 * The namespace of one test file: call once at the top of the file with its name, write through it, and call
 * `cleanup()` in afterAll.
 */
export function testData(file: string): TestData {
  const tag = `${file}-${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 3).toString(36)}`
  const agentIds: string[] = []
  const saleIds: string[] = []
  const postIds: string[] = []
  const zips: string[] = []
  return {
    tag,
    unique: (label) => `${label} ${tag}`,
    slug: (prefix) => `${prefix}-${tag}`.toLowerCase(),
    async zip() {
      const zip = await unusedZip()
      zips.push(zip)
      return zip
    },
    async agents(agents) {
      const ids = await insertAgents(agents)
      agentIds.push(...ids)
      return ids
    },
    async agent(agent) {
      return (await this.agents([agent]))[0]!
    },
    async sales(sales) {
      const ids = await insertSales(sales)
      saleIds.push(...ids)
      return ids
    },
    async sale(sale) {
      return (await this.sales([sale]))[0]!
    },
    async posts(posts) {
      const ids = await insertPosts(posts)
      postIds.push(...ids)
      return ids
    },
    async post(post) {
      return (await this.posts([post]))[0]!
    },
    async cleanup() {
      await sql('delete from public.blog_posts where id = any($1::uuid[])', [postIds.splice(0)])
      const agents = agentIds.splice(0)
      await sql('delete from public.report_requests where agent_id = any($1::uuid[])', [agents])
      await sql(
        `delete from public.properties
          where id = any($1::uuid[]) or agent_id = any($2::uuid[]) or zip_code = any($3::text[])`,
        [saleIds.splice(0), agents, zips.splice(0)],
      )
      await sql('delete from public.agents where id = any($1::uuid[])', [agents])
    },
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Agents with closed sales in one ZIP, as the browser tests and the site-build tests use them
// ---------------------------------------------------------------------------------------------------------------

export interface FixtureSale {
  address: string
  /** Days before today. */
  daysAgo: number
  /** USD. */
  listPrice: number
  /** USD. */
  salePrice: number
  daysOnMarket: number
  /** MemberMlsId of the other agents on the sale (RESO CoListAgentMlsId, BuyerAgentMlsId, CoBuyerAgentMlsId). */
  coListMlsId?: string
  buyerMlsId?: string
  coBuyerMlsId?: string
  /** RESO PropertyType (e.g. 'Residential', 'Condominium'). */
  propertyType?: string
}

export interface FixtureAgentInput {
  name: string
  brokerage?: string
  phone?: string | null
  email?: string | null
  rating?: number | null
  reviewCount?: number
  licenseNumber?: string | null
  yearsExperience?: number | null
  mlsId?: string | null
  sales: FixtureSale[]
  /** ZIP of the sales; defaults to the fixture's ZIP. */
  zip?: string
}

export interface FixtureAgent extends FixtureAgentInput {
  id: string
}

/** `count` sales with varied prices: every third one sold over list. */
export function makeSales(prefix: string, count: number, startDaysAgo = 5): FixtureSale[] {
  return Array.from({ length: count }, (_, index) => {
    const listPrice = 400_000 + index * 25_000
    const over = index % 3 === 0
    return {
      address: `${100 + index} ${prefix} St`,
      daysAgo: startDaysAgo + index * 7,
      listPrice,
      salePrice: over ? listPrice + 10_000 : listPrice - 5_000,
      daysOnMarket: 10 + index,
    }
  })
}

/**
 * Creates the agents (with a full profile: brokerage, phone, email, rating, license, experience unless given) and
 * their closed sales in `zip`, then refreshes every agent's metrics. `remove()` deletes everything it created.
 */
export async function createAgents(zip: string, agents: FixtureAgentInput[], city = 'Fixtureville', state = 'MA') {
  const ids = await insertAgents(
    agents.map((agent) => ({
      name: agent.name,
      brokerage: agent.brokerage ?? 'Fixture Realty',
      phone: agent.phone === undefined ? '(617) 555-0101' : agent.phone,
      email: agent.email === undefined ? 'agent@example.com' : agent.email,
      rating: agent.rating === undefined ? 4.6 : agent.rating,
      reviewCount: agent.reviewCount ?? 27,
      licenseNumber: agent.licenseNumber === undefined ? 'MA-123456' : agent.licenseNumber,
      yearsExperience: agent.yearsExperience === undefined ? 12 : agent.yearsExperience,
      mlsId: agent.mlsId ?? null,
      city,
      state,
      zip: agent.zip ?? zip,
    })),
  )
  await insertSales(
    agents.flatMap((agent, index) =>
      agent.sales.map((sale) => ({
        agentId: ids[index]!,
        address: sale.address,
        city,
        state,
        zip: agent.zip ?? zip,
        listPrice: sale.listPrice,
        salePrice: sale.salePrice,
        daysAgo: sale.daysAgo,
        daysOnMarket: sale.daysOnMarket,
        standardStatus: 'Closed',
        status: 'sold',
        coListAgentMlsId: sale.coListMlsId ?? null,
        buyerAgentMlsId: sale.buyerMlsId ?? null,
        coBuyerAgentMlsId: sale.coBuyerMlsId ?? null,
        propertyType: sale.propertyType ?? null,
      })),
    ),
  )
  const created: FixtureAgent[] = agents.map((agent, index) => ({ ...agent, id: ids[index]! }))
  await refreshAgentMetrics()
  return {
    agents: created,
    async remove() {
      await sql(`delete from public.report_requests where agent_id = any($1)`, [ids])
      await sql(`delete from public.properties where agent_id = any($1)`, [ids])
      await sql(`delete from public.agents where id = any($1)`, [ids])
    },
  }
}

/** The agent row as stored after the refresh (numerics as numbers, dates as YYYY-MM-DD). */
export async function agentRow(id: string) {
  const [row] = await sql<Record<string, unknown>>(
    `select *, average_sale_to_list_ratio::float8 as avg_ratio, median_sale_to_list_ratio::float8 as median_ratio,
            average_days_on_market::float8 as avg_dom, median_days_on_market::float8 as median_dom,
            market_share::float8 as share, metrics_window_start::text as window_start, metrics_window_end::text as window_end
       from public.agents where id = $1`,
    [id],
  )
  return row!
}
