/**
 * Batched writes with `pg`: each batch is one INSERT ... SELECT FROM unnest(<one array per column>) ... ON CONFLICT
 * DO UPDATE, so a batch costs one round trip and a fixed number of parameters whatever its size. Rows that would not
 * change are not updated (IS DISTINCT FROM), which makes a second import of the same file a no-op and lets the
 * summary tell inserted, updated and unchanged apart (xmax = 0 marks a fresh insert).
 */
import type pg from 'pg'
import { agentRoles, memberRowKey, type MemberRow, type PropertyRow } from './records.ts'

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
  ['list_agent_key', 'text'],
  ['list_agent_mls_id', 'text'],
  ['co_list_agent_key', 'text'],
  ['co_list_agent_mls_id', 'text'],
  ['buyer_agent_key', 'text'],
  ['buyer_agent_mls_id', 'text'],
  ['co_buyer_agent_key', 'text'],
  ['co_buyer_agent_mls_id', 'text'],
  ['list_office_key', 'text'],
  ['list_office_mls_id', 'text'],
  ['list_office_name', 'text'],
  ['co_list_office_key', 'text'],
  ['co_list_office_mls_id', 'text'],
  ['co_list_office_name', 'text'],
  ['buyer_office_key', 'text'],
  ['buyer_office_mls_id', 'text'],
  ['buyer_office_name', 'text'],
  ['co_buyer_office_key', 'text'],
  ['co_buyer_office_mls_id', 'text'],
  ['co_buyer_office_name', 'text'],
  ['modification_timestamp', 'timestamptz'],
] as const satisfies ReadonlyArray<readonly [keyof PropertyRow, string]>

/** Staged with a listing but not stored on it: the names of agents created from an MLS id alone. */
const agentNameColumns = agentRoles.map(({ name }) => [name, 'text'] as const)

const names = propertyColumns.map(([name]) => name)
const updatable = names.filter((name) => name !== 'source' && name !== 'source_record_id')

/**
 * INSERT ... ON CONFLICT for properties reading rows from `from`, a FROM item that yields the columns of
 * propertyColumns under the alias `u` (an unnest of arrays, or the staging table).
 * agent_id (the listing agent) is the agent whose member_key is ListAgentKey, or, when the listing gives no Key, whose
 * mls_id is ListAgentMlsId; it follows the feed when the feed names a known listing agent, and is left alone (an
 * admin's choice, or not known yet) otherwise. The sides of every role follow in the database (transaction_sides).
 */
const upsertPropertiesFrom = (from: string, returning: string) => `
  insert into public.properties (${names.join(', ')}, agent_id)
  select ${names.map((name) => `u.${name}`).join(', ')}, coalesce(by_key.id, by_mls.id)
  from ${from}
  left join public.agents by_key on by_key.member_key = u.list_agent_key
  left join public.agents by_mls on u.list_agent_key is null and by_mls.mls_id = u.list_agent_mls_id
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
 * Agents named by a listing's MLS id alone, from a FROM item yielding (mls_id, name, brokerage) as `u`: creates
 * missing agents and fills a blank name placeholder or brokerage; never overwrites what a Member import or an admin
 * set. A role that comes with a Key never creates an agent: the Member resource owns agents known by Key.
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
  'member_key',
  'mls_id',
  'name',
  'license_number',
  'email',
  'phone',
  'brokerage',
] as const satisfies ReadonlyArray<keyof MemberRow>
const keptMemberColumns = ['license_number', 'email', 'phone', 'brokerage'] as const

/**
 * Member records from a FROM item yielding memberColumns as `u`, in three statements (each one round trip):
 *   1. an agent known so far by MLS id alone takes the MemberKey of the Member record with that MLS id;
 *   2. Members with a MemberKey are upserted by member_key (their MLS id is kept unless another agent holds it);
 *   3. Members without a MemberKey (a feed without keys) are upserted by mls_id.
 * A blank field keeps what is stored. Returns the agents inserted and updated.
 */
async function upsertMembersFrom(client: pg.ClientBase, from: string, params: unknown[] = []): Promise<WriteCounts> {
  const adopted = await client.query<{ id: string }>(
    `update public.agents a set member_key = u.member_key
     from (select distinct on (u.member_key) u.member_key, u.mls_id from ${from}
           where u.member_key is not null and u.mls_id is not null order by u.member_key) u
     where a.member_key is null and a.mls_id = u.mls_id
       and not exists (select 1 from public.agents b where b.member_key = u.member_key)
     returning a.id`,
    params,
  )
  const keyed = await client.query<{ id: string; inserted: boolean }>(
    `insert into public.agents (${memberColumns.join(', ')})
     select u.member_key,
            case when exists (select 1 from public.agents b where b.mls_id = u.mls_id and b.member_key is distinct from u.member_key)
                 then null else u.mls_id end,
            ${memberColumns
              .slice(2)
              .map((name) => `u.${name}`)
              .join(', ')}
     from ${from} where u.member_key is not null
     on conflict (member_key) do update set
       mls_id = coalesce(excluded.mls_id, agents.mls_id),
       name = excluded.name,
       ${keptMemberColumns.map((name) => `${name} = coalesce(excluded.${name}, agents.${name})`).join(',\n       ')}
     where (agents.mls_id, agents.name, ${keptMemberColumns.map((name) => `agents.${name}`).join(', ')})
       is distinct from (coalesce(excluded.mls_id, agents.mls_id), excluded.name, ${keptMemberColumns.map((name) => `coalesce(excluded.${name}, agents.${name})`).join(', ')})
     returning id, (xmax = 0) as inserted`,
    params,
  )
  const unkeyed = await client.query<{ id: string; inserted: boolean }>(
    `insert into public.agents (${memberColumns.slice(1).join(', ')})
     select ${memberColumns
       .slice(1)
       .map((name) => `u.${name}`)
       .join(', ')} from ${from} where u.member_key is null
     on conflict (mls_id) do update set
       name = excluded.name,
       ${keptMemberColumns.map((name) => `${name} = coalesce(excluded.${name}, agents.${name})`).join(',\n       ')}
     where (agents.name, ${keptMemberColumns.map((name) => `agents.${name}`).join(', ')})
       is distinct from (excluded.name, ${keptMemberColumns.map((name) => `coalesce(excluded.${name}, agents.${name})`).join(', ')})
     returning id, (xmax = 0) as inserted`,
    params,
  )
  const written = [...keyed.rows, ...unkeyed.rows]
  const inserted = new Set(written.filter((row) => row.inserted).map((row) => row.id))
  const updated = new Set([
    ...adopted.rows.map((row) => row.id),
    ...written.filter((row) => !row.inserted).map((row) => row.id),
  ])
  for (const id of inserted) updated.delete(id)
  return { inserted: inserted.size, updated: updated.size }
}

export interface WriteCounts {
  inserted: number
  updated: number
}

function count(rows: Array<{ inserted: boolean }>): WriteCounts {
  const inserted = rows.filter((row) => row.inserted).length
  return { inserted, updated: rows.length - inserted }
}

/**
 * Creates the agents that listings name by MLS id alone (any role: list, co-list, buyer, co-buyer agent, without
 * the role's Key) and that do not exist yet, and fills their blank name placeholder or brokerage. A listing never
 * overwrites what a Member import or an admin set. Without the role's ...AgentFullName the MLS id stands in as the
 * name until a Member record supplies one.
 */
export async function upsertListingAgents(client: pg.ClientBase, rows: PropertyRow[]): Promise<WriteCounts> {
  const agents = new Map<string, { name: string | null; office: string | null }>()
  for (const row of rows) {
    for (const role of agentRoles) {
      const mlsId = row[role.mlsId]
      if (!mlsId || row[role.key]) continue
      const seen = agents.get(mlsId)
      agents.set(mlsId, {
        name: row[role.name] ?? seen?.name ?? null,
        office: row[role.officeName] ?? seen?.office ?? null,
      })
    }
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

/** Upserts agents from Member records by member_key (else mls_id); a blank field keeps what is stored. */
export async function upsertMembers(client: pg.ClientBase, rows: MemberRow[]): Promise<WriteCounts> {
  if (rows.length === 0) return { inserted: 0, updated: 0 }
  return upsertMembersFrom(
    client,
    `unnest(${memberColumns.map((_, i) => `$${i + 1}::text[]`).join(', ')}) as u(${memberColumns.join(', ')})`,
    memberColumns.map((name) => rows.map((row) => row[name])),
  )
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
         ${[...propertyColumns, ...agentNameColumns].map(([name, type]) => `${name} ${type}`).join(',\n         ')},
         primary key (source_record_id)
       ) on commit drop`,
    )
  } else {
    await client.query(
      `create temp table import_staged_members (seq bigint not null, k text not null, ${memberColumns.map((name) => `${name} text`).join(', ')}, primary key (k)) on commit drop`,
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
      ? [...propertyColumns, ...agentNameColumns]
      : [['k', 'text'], ...memberColumns.map((name) => [name, 'text'] as const)]
  const table = resource === 'Property' ? stagedProperties : stagedMembers
  const key = resource === 'Property' ? 'source_record_id' : 'k'
  const valueOf = (row: PropertyRow | MemberRow, name: string): unknown =>
    name === 'k' ? memberRowKey(row as MemberRow) : ((row as unknown as Record<string, unknown>)[name] ?? null)
  await client.query(
    `insert into ${table} (seq, ${columns.map(([name]) => name).join(', ')})
     select * from unnest($1::bigint[], ${columns.map(([, type], i) => `$${i + 2}::${type}[]`).join(', ')})
     on conflict (${key}) do update set seq = excluded.seq, ${columns.map(([name]) => `${name} = excluded.${name}`).join(', ')}`,
    [rows.map((entry) => entry.seq), ...columns.map(([name]) => rows.map((entry) => valueOf(entry.row, name)))],
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
  // one apply at a time, and never beside a metrics refresh: the refresh's own lock, taken before any live table is
  // touched. Two imports that both counted a small table (a shared lock) and then both dropped its indexes for a bulk
  // load (an exclusive lock) deadlocked; so did an import holding a dropped index while waiting for a refresh. The
  // refresh this transaction runs later takes the same lock again, which Postgres allows its holder.
  await client.query(`select pg_advisory_xact_lock(hashtext('public.refresh_agent_metrics'))`)
  if (resource === 'Member') {
    const counts = await upsertMembersFrom(client, `(select ${memberColumns.join(', ')} from ${stagedMembers}) as u`)
    return { ...counts, agentsInserted: counts.inserted, agentsUpdated: counts.updated }
  }
  const latest = (column: string) =>
    `(array_agg(r.${column} order by r.seq desc) filter (where r.${column} is not null))[1]`
  const roles = agentRoles
    .map(
      (role) =>
        `select s.seq, s.${role.mlsId} as mls_id, s.${role.name} as name, s.${role.officeName} as brokerage
         from ${stagedProperties} s where s.${role.mlsId} is not null and s.${role.key} is null`,
    )
    .join('\n        union all\n        ')
  const agents = await client.query<WriteCounts>(
    `with w as (${upsertListingAgentsFrom(
      `(select r.mls_id, ${latest('name')} as name, ${latest('brokerage')} as brokerage
        from (${roles}) r group by r.mls_id) as u`,
      '(xmax = 0) as inserted',
    )}) select ${countsOf} from w`,
  )
  // the properties triggers write a transaction_sides row per agent role: in a bulk load, its indexes and foreign
  // keys too
  const rebuilt = [
    ...(await dropForBulkLoad(client, 'public.properties', stagedProperties)),
    ...(await dropForBulkLoad(client, 'public.transaction_sides', stagedProperties)),
  ]
  const properties = await client.query<WriteCounts>(
    `with w as (${upsertPropertiesFrom(`(select ${names.join(', ')} from ${stagedProperties} order by source_record_id) as u`, '(xmax = 0) as inserted')}) select ${countsOf} from w`,
  )
  for (const definition of rebuilt) await client.query(definition)
  return { ...properties.rows[0]!, agentsInserted: agents.rows[0]!.inserted, agentsUpdated: agents.rows[0]!.updated }
}

/**
 * Bulk load (PostgreSQL manual, "Populating a Database: Remove Indexes" and "Remove Foreign Key Constraints"): when
 * the staging table holds at least as many rows as `table` (a first load, or a file that more than doubles the
 * table), maintaining every secondary index and checking every foreign key row by row costs far more than building
 * the index once from the finished table and checking the key with one join. Such indexes (not the primary key, not
 * a unique or constraint index: ON CONFLICT needs those) and `table`'s foreign keys are dropped here; the caller runs
 * the returned statements (indexes first, then the foreign keys, which check every row as they are added) inside the
 * same transaction, so a failed run restores them with everything else and no row escapes its key. Before the first
 * drop it locks the sales and their sides ACCESS EXCLUSIVE and the agents SHARE ROW EXCLUSIVE until commit: readers
 * of a table that small wait for the new data instead of seeing the old, and agent writers wait for the import.
 * Below the threshold nothing is dropped or locked and [] is returned.
 */
async function dropForBulkLoad(client: pg.ClientBase, table: string, staged: string): Promise<string[]> {
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
  const { rows: foreignKeys } = await client.query<{ name: string; definition: string }>(
    `select quote_ident(c.conname) as name, pg_get_constraintdef(c.oid) as definition
     from pg_constraint c where c.conrelid = $1::regclass and c.contype = 'f' order by c.conname`,
    [table],
  )
  // Every table a bulk load alters, locked before the first drop and in the order the agents' and the sales'
  // triggers write them (agents, then the sales, then their sides): locked one drop at a time, an import holding the
  // sides (an index dropped) waited for the sales while an agent insert holding the sales waited for the sides, and
  // PostgreSQL cancelled the import as a deadlock. Agents stay readable (share row exclusive blocks writers only).
  await client.query('lock table public.agents in share row exclusive mode')
  await client.query('lock table public.properties, public.transaction_sides in access exclusive mode')
  // index builds sort: give them room for this transaction only
  await client.query(`set local maintenance_work_mem = '256MB'`)
  for (const { name } of rows) await client.query(`drop index ${name}`)
  for (const { name } of foreignKeys) await client.query(`alter table ${table} drop constraint ${name}`)
  return [
    ...rows.map((row) => row.definition),
    ...foreignKeys.map(({ name, definition }) => `alter table ${table} add constraint ${name} ${definition}`),
  ]
}
