/**
 * Batched writes with `pg`: each batch is one INSERT ... SELECT FROM unnest(<one array per column>) ... ON CONFLICT
 * DO UPDATE, so a batch costs one round trip and a fixed number of parameters whatever its size. Rows that would not
 * change are not updated (IS DISTINCT FROM), which makes a second import of the same file a no-op and lets the
 * summary tell inserted, updated and unchanged apart (xmax = 0 marks a fresh insert).
 */
import type pg from 'pg';
import type { MemberRow, PropertyRow } from './records.ts';

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
] as const satisfies ReadonlyArray<readonly [keyof PropertyRow, string]>;

const names = propertyColumns.map(([name]) => name);
const updatable = names.filter((name) => name !== 'source' && name !== 'source_record_id');

// agent_id follows the feed when the feed names a listing agent, and is left alone (an admin's choice) otherwise
const upsertPropertiesSql = `
  insert into public.properties (${names.join(', ')}, agent_id)
  select u.*, a.id
  from unnest(${propertyColumns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')}) as u(${names.join(', ')})
  left join public.agents a on a.mls_id = u.list_agent_mls_id
  on conflict (source, source_record_id) do update set
    ${updatable.map((name) => `${name} = excluded.${name}`).join(',\n    ')},
    agent_id = coalesce(excluded.agent_id, properties.agent_id)
  where (${updatable.map((name) => `properties.${name}`).join(', ')}, properties.agent_id)
    is distinct from (${updatable.map((name) => `excluded.${name}`).join(', ')}, coalesce(excluded.agent_id, properties.agent_id))
    and (excluded.modification_timestamp is null or properties.modification_timestamp is null
         or excluded.modification_timestamp >= properties.modification_timestamp)
  returning (xmax = 0) as inserted`;

export interface WriteCounts {
  inserted: number;
  updated: number;
}

function count(rows: Array<{ inserted: boolean }>): WriteCounts {
  const inserted = rows.filter((row) => row.inserted).length;
  return { inserted, updated: rows.length - inserted };
}

/**
 * Creates the agents named by ListAgentMlsId that do not exist yet, and fills their blank name placeholder or
 * brokerage. A listing never overwrites what a Member import or an admin set. Without ListAgentFullName the MLS id
 * stands in as the name until a Member record supplies one.
 */
export async function upsertListingAgents(client: pg.ClientBase, rows: PropertyRow[]): Promise<WriteCounts> {
  const agents = new Map<string, { name: string | null; office: string | null }>();
  for (const row of rows) {
    if (!row.list_agent_mls_id) continue;
    const seen = agents.get(row.list_agent_mls_id);
    agents.set(row.list_agent_mls_id, {
      name: row.list_agent_full_name ?? seen?.name ?? null,
      office: row.list_office_name ?? seen?.office ?? null,
    });
  }
  if (agents.size === 0) return { inserted: 0, updated: 0 };
  const ids = [...agents.keys()];
  const result = await client.query<{ inserted: boolean }>(
    `insert into public.agents (mls_id, name, brokerage)
     select u.mls_id, coalesce(u.name, u.mls_id), u.brokerage
     from unnest($1::text[], $2::text[], $3::text[]) as u(mls_id, name, brokerage)
     on conflict (mls_id) do update set
       name = case when agents.name = agents.mls_id and excluded.name <> excluded.mls_id then excluded.name else agents.name end,
       brokerage = coalesce(agents.brokerage, excluded.brokerage)
     where (agents.name = agents.mls_id and excluded.name <> excluded.mls_id)
        or (agents.brokerage is null and excluded.brokerage is not null)
     returning (xmax = 0) as inserted`,
    [ids, ids.map((id) => agents.get(id)!.name), ids.map((id) => agents.get(id)!.office)],
  );
  return count(result.rows);
}

/** Upserts a batch of properties by (source, source_record_id); the batch must not repeat a key. */
export async function upsertProperties(client: pg.ClientBase, rows: PropertyRow[]): Promise<WriteCounts> {
  if (rows.length === 0) return { inserted: 0, updated: 0 };
  const values = propertyColumns.map(([name]) => rows.map((row) => row[name]));
  const result = await client.query<{ inserted: boolean }>(upsertPropertiesSql, values);
  return count(result.rows);
}

/** Upserts agents from Member records by mls_id; a blank field in the record keeps what is stored. */
export async function upsertMembers(client: pg.ClientBase, rows: MemberRow[]): Promise<WriteCounts> {
  if (rows.length === 0) return { inserted: 0, updated: 0 };
  const columns = ['mls_id', 'name', 'license_number', 'email', 'phone', 'brokerage'] as const;
  const kept = ['license_number', 'email', 'phone', 'brokerage'] as const;
  const result = await client.query<{ inserted: boolean }>(
    `insert into public.agents (${columns.join(', ')})
     select * from unnest(${columns.map((_, i) => `$${i + 1}::text[]`).join(', ')}) as u(${columns.join(', ')})
     on conflict (mls_id) do update set
       name = excluded.name,
       ${kept.map((name) => `${name} = coalesce(excluded.${name}, agents.${name})`).join(',\n       ')}
     where (agents.name, ${kept.map((name) => `agents.${name}`).join(', ')})
       is distinct from (excluded.name, ${kept.map((name) => `coalesce(excluded.${name}, agents.${name})`).join(', ')})
     returning (xmax = 0) as inserted`,
    columns.map((name) => rows.map((row) => row[name])),
  );
  return count(result.rows);
}
