/**
 * Batched writes with `pg`: each batch is one INSERT ... SELECT FROM unnest(<one array per column>) ... ON CONFLICT
 * DO UPDATE, so a batch costs one round trip and a fixed number of parameters whatever its size. Rows that would not
 * change are not updated (IS DISTINCT FROM), which makes a second import of the same file a no-op and lets the
 * summary tell inserted, updated and unchanged apart (xmax = 0 marks a fresh insert).
 */
import type pg from 'pg'
import type { MemberRow, PropertyRow } from './records.ts'

/** The properties columns the importer writes, with the Postgres array type used to send them. */
const propertyColumns = [
  ['source', 'text'],
  ['source_record_id', 'text'],
  ['listing_key', 'text'],
  ['address', 'text'],
  ['street_number', 'text'],
  ['street_name', 'text'],
  ['unit_number', 'text'],
  ['city', 'text'],
  ['state', 'text'],
  ['zip_code', 'text'],
  ['latitude', 'numeric'],
  ['longitude', 'numeric'],
  ['list_price', 'numeric'],
  ['original_list_price', 'numeric'],
  ['sale_price', 'numeric'],
  ['sale_date', 'date'],
  ['listing_contract_date', 'date'],
  ['days_on_market', 'integer'],
  ['bedrooms', 'integer'],
  ['bathrooms', 'numeric'],
  ['square_feet', 'integer'],
  ['property_type', 'text'],
  ['standard_status', 'text'],
  ['status', 'text'],
  ['list_agent_mls_id', 'text'],
  ['buyer_agent_mls_id', 'text'],
  ['list_office_name', 'text'],
  ['modification_timestamp', 'timestamptz'],
] as const satisfies ReadonlyArray<readonly [keyof PropertyRow, string]>

const names = propertyColumns.map(([name]) => name)
const updatable = names.filter((name) => name !== 'source' && name !== 'source_record_id')

/**
 * INSERT ... ON CONFLICT for properties reading rows from `from`, a FROM item that yields the columns of
 * propertyColumns under the alias `u` (an unnest of arrays, or the staging table).
 * agent_id follows the feed when the feed names a listing agent, and is left alone (an admin's choice) otherwise.
 */
const upsertPropertiesFrom = (from: string, returning: string) => `
  insert into public.properties (${names.join(', ')}, agent_id)
  select ${names.map((name) => `u.${name}`).join(', ')}, a.id
  from ${from}
  left join public.agents a on a.mls_id = u.list_agent_mls_id
  on conflict (source, source_record_id) do update set
    ${updatable.map((name) => `${name} = excluded.${name}`).join(',\n    ')},
    agent_id = coalesce(excluded.agent_id, properties.agent_id)
  where (${updatable.map((name) => `properties.${name}`).join(', ')}, properties.agent_id)
    is distinct from (${updatable.map((name) => `excluded.${name}`).join(', ')}, coalesce(excluded.agent_id, properties.agent_id))
    and (excluded.modification_timestamp is null or properties.modification_timestamp is null
         or excluded.modification_timestamp >= properties.modification_timestamp)
  returning ${returning}`

const upsertPropertiesSql = upsertPropertiesFrom(
  `unnest(${propertyColumns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')}) as u(${names.join(', ')})`,
  '(xmax = 0) as inserted',
)

/**
 * Listing agents from a FROM item yielding (mls_id, name, brokerage) as `u`: creates missing agents and fills a
 * blank name placeholder or brokerage; never overwrites what a Member import or an admin set.
 */
const upsertListingAgentsFrom = (from: string, returning: string) => `
  insert into public.agents (mls_id, name, brokerage)
  select u.mls_id, coalesce(u.name, u.mls_id), u.brokerage
  from ${from}
  on conflict (mls_id) do update set
    name = case when agents.name = agents.mls_id and excluded.name <> excluded.mls_id then excluded.name else agents.name end,
    brokerage = coalesce(agents.brokerage, excluded.brokerage)
  where (agents.name = agents.mls_id and excluded.name <> excluded.mls_id)
     or (agents.brokerage is null and excluded.brokerage is not null)
  returning ${returning}`

const memberColumns = [
  'mls_id',
  'name',
  'license_number',
  'email',
  'phone',
  'brokerage',
] as const satisfies ReadonlyArray<keyof MemberRow>
const keptMemberColumns = ['license_number', 'email', 'phone', 'brokerage'] as const

/** Member records from a FROM item yielding memberColumns as `u`; a blank field keeps what is stored. */
const upsertMembersFrom = (from: string, returning: string) => `
  insert into public.agents (${memberColumns.join(', ')})
  select ${memberColumns.map((name) => `u.${name}`).join(', ')} from ${from}
  on conflict (mls_id) do update set
    name = excluded.name,
    ${keptMemberColumns.map((name) => `${name} = coalesce(excluded.${name}, agents.${name})`).join(',\n    ')}
  where (agents.name, ${keptMemberColumns.map((name) => `agents.${name}`).join(', ')})
    is distinct from (excluded.name, ${keptMemberColumns.map((name) => `coalesce(excluded.${name}, agents.${name})`).join(', ')})
  returning ${returning}`

export interface WriteCounts {
  inserted: number
  updated: number
}

function count(rows: Array<{ inserted: boolean }>): WriteCounts {
  const inserted = rows.filter((row) => row.inserted).length
  return { inserted, updated: rows.length - inserted }
}

/**
 * Creates the agents named by ListAgentMlsId that do not exist yet, and fills their blank name placeholder or
 * brokerage. A listing never overwrites what a Member import or an admin set. Without ListAgentFullName the MLS id
 * stands in as the name until a Member record supplies one.
 */
export async function upsertListingAgents(client: pg.ClientBase, rows: PropertyRow[]): Promise<WriteCounts> {
  const agents = new Map<string, { name: string | null; office: string | null }>()
  for (const row of rows) {
    if (!row.list_agent_mls_id) continue
    const seen = agents.get(row.list_agent_mls_id)
    agents.set(row.list_agent_mls_id, {
      name: row.list_agent_full_name ?? seen?.name ?? null,
      office: row.list_office_name ?? seen?.office ?? null,
    })
  }
  if (agents.size === 0) return { inserted: 0, updated: 0 }
  const ids = [...agents.keys()]
  const result = await client.query<{ inserted: boolean }>(
    upsertListingAgentsFrom(
      'unnest($1::text[], $2::text[], $3::text[]) as u(mls_id, name, brokerage)',
      '(xmax = 0) as inserted',
    ),
    [ids, ids.map((id) => agents.get(id)!.name), ids.map((id) => agents.get(id)!.office)],
  )
  return count(result.rows)
}

/** Upserts a batch of properties by (source, source_record_id); the batch must not repeat a key. */
export async function upsertProperties(client: pg.ClientBase, rows: PropertyRow[]): Promise<WriteCounts> {
  if (rows.length === 0) return { inserted: 0, updated: 0 }
  const values = propertyColumns.map(([name]) => rows.map((row) => row[name]))
  const result = await client.query<{ inserted: boolean }>(upsertPropertiesSql, values)
  return count(result.rows)
}

/** Upserts agents from Member records by mls_id; a blank field in the record keeps what is stored. */
export async function upsertMembers(client: pg.ClientBase, rows: MemberRow[]): Promise<WriteCounts> {
  if (rows.length === 0) return { inserted: 0, updated: 0 }
  const result = await client.query<{ inserted: boolean }>(
    upsertMembersFrom(
      `unnest(${memberColumns.map((_, i) => `$${i + 1}::text[]`).join(', ')}) as u(${memberColumns.join(', ')})`,
      '(xmax = 0) as inserted',
    ),
    memberColumns.map((name) => rows.map((row) => row[name])),
  )
  return count(result.rows)
}

// ---------------------------------------------------------------------------------------------------------------
// Staging: a file import first loads every valid row into a temporary table (pg_temp, dropped at commit), then
// applies it with one statement per table, inside the transaction that also refreshes the metrics. Nothing is
// visible to anyone else until that transaction commits; a killed run leaves only its session's temp table, which
// Postgres drops with the session.
// ---------------------------------------------------------------------------------------------------------------

const stagedProperties = 'pg_temp.import_staged_properties'
const stagedMembers = 'pg_temp.import_staged_members'

/** Creates the session's staging table for `resource` (empty, dropped at commit). Call inside a transaction. */
export async function createStaging(client: pg.ClientBase, resource: 'Property' | 'Member'): Promise<void> {
  if (resource === 'Property') {
    await client.query(
      `create temp table import_staged_properties (
         seq bigint not null,
         ${propertyColumns.map(([name, type]) => `${name} ${type}`).join(',\n         ')},
         list_agent_full_name text,
         primary key (source_record_id)
       ) on commit drop`,
    )
  } else {
    await client.query(
      `create temp table import_staged_members (seq bigint not null, ${memberColumns.map((name) => `${name} text`).join(', ')}, primary key (mls_id)) on commit drop`,
    )
  }
}

/**
 * Adds a batch to the staging table; a key staged before is replaced (the later record in the file wins).
 * `rows` must not repeat a key; `seq` gives each row's position in the file.
 */
export async function stageRows(
  client: pg.ClientBase,
  resource: 'Property' | 'Member',
  rows: Array<{ seq: number; row: PropertyRow | MemberRow }>,
): Promise<void> {
  if (rows.length === 0) return
  const columns: Array<readonly [string, string]> =
    resource === 'Property'
      ? [...propertyColumns, ['list_agent_full_name', 'text']]
      : memberColumns.map((name) => [name, 'text'] as const)
  const table = resource === 'Property' ? stagedProperties : stagedMembers
  const key = resource === 'Property' ? 'source_record_id' : 'mls_id'
  await client.query(
    `insert into ${table} (seq, ${columns.map(([name]) => name).join(', ')})
     select * from unnest($1::bigint[], ${columns.map(([, type], i) => `$${i + 2}::${type}[]`).join(', ')})
     on conflict (${key}) do update set seq = excluded.seq, ${columns.map(([name]) => `${name} = excluded.${name}`).join(', ')}`,
    [
      rows.map((entry) => entry.seq),
      ...columns.map(([name]) => rows.map((entry) => (entry.row as unknown as Record<string, unknown>)[name] ?? null)),
    ],
  )
}

export interface ApplyCounts extends WriteCounts {
  agentsInserted: number
  agentsUpdated: number
}

const countsOf =
  'count(*) filter (where inserted)::int as inserted, count(*) filter (where not inserted)::int as updated'

/**
 * Applies the staged rows to the live tables with one upsert per table (same rules as the batch functions above):
 * for Property, the listing agents first (name and office from the latest record naming them), then the listings.
 */
export async function applyStaged(client: pg.ClientBase, resource: 'Property' | 'Member'): Promise<ApplyCounts> {
  if (resource === 'Member') {
    const { rows } = await client.query<WriteCounts>(
      `with w as (${upsertMembersFrom(`(select ${memberColumns.join(', ')} from ${stagedMembers}) as u`, '(xmax = 0) as inserted')}) select ${countsOf} from w`,
    )
    return { ...rows[0]!, agentsInserted: rows[0]!.inserted, agentsUpdated: rows[0]!.updated }
  }
  const latest = (column: string) =>
    `(array_agg(s.${column} order by s.seq desc) filter (where s.${column} is not null))[1]`
  const agents = await client.query<WriteCounts>(
    `with w as (${upsertListingAgentsFrom(
      `(select s.list_agent_mls_id as mls_id, ${latest('list_agent_full_name')} as name, ${latest('list_office_name')} as brokerage
        from ${stagedProperties} s where s.list_agent_mls_id is not null group by s.list_agent_mls_id) as u`,
      '(xmax = 0) as inserted',
    )}) select ${countsOf} from w`,
  )
  const rebuilt = await dropSecondaryIndexesForBulkLoad(client, 'public.properties', stagedProperties)
  const properties = await client.query<WriteCounts>(
    `with w as (${upsertPropertiesFrom(`(select ${names.join(', ')} from ${stagedProperties} order by source_record_id) as u`, '(xmax = 0) as inserted')}) select ${countsOf} from w`,
  )
  for (const definition of rebuilt) await client.query(definition)
  return { ...properties.rows[0]!, agentsInserted: agents.rows[0]!.inserted, agentsUpdated: agents.rows[0]!.updated }
}

/**
 * Bulk load (PostgreSQL manual, "Populating a Database: Remove Indexes"): when the staging table holds at least as
 * many rows as `table` (a first load, or a file that more than doubles the table), maintaining every secondary index
 * row by row costs far more than building it once from the finished table. Such indexes (not the primary key, not a
 * unique or constraint index: ON CONFLICT needs those) are dropped here and rebuilt by the caller from the returned
 * definitions, inside the same transaction, so a failed run restores them with everything else. The DROP takes an
 * ACCESS EXCLUSIVE lock on `table` until commit: readers of a table that small wait for the new data instead of
 * seeing the old. Below the threshold nothing is dropped and [] is returned.
 */
async function dropSecondaryIndexesForBulkLoad(
  client: pg.ClientBase,
  table: string,
  staged: string,
): Promise<string[]> {
  const { rows: sizes } = await client.query<{ live: string; incoming: string }>(
    `select (select count(*) from ${table}) as live, (select count(*) from ${staged}) as incoming`,
  )
  if (Number(sizes[0]!.incoming) < Math.max(1, Number(sizes[0]!.live))) return []
  const { rows } = await client.query<{ name: string; definition: string }>(
    `select format('%I.%I', n.nspname, c.relname) as name, pg_get_indexdef(i.indexrelid) as definition
     from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace
     where i.indrelid = $1::regclass and not i.indisprimary and not i.indisunique
       and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
    [table],
  )
  // index builds sort: give them room for this transaction only
  await client.query(`set local maintenance_work_mem = '256MB'`)
  for (const { name } of rows) await client.query(`drop index ${name}`)
  return rows.map((row) => row.definition)
}
