/**
 * The statement triggers that compare a table's old and new rows (page versions, figures noting) join the two
 * transition tables by hashing, even when their plan was made for a few rows: PL/pgSQL keeps a statement's plan for
 * the session, and a nested loop cached from a one-row update then compared every pair of rows of a large one (an
 * import's metrics refresh updating 10,000 agents: 100 million comparisons, 70 s). The plans are read from
 * auto_explain, as the server ran them, and every such trigger function is checked for the guard.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import pg from 'pg'
import { testEnv } from '../support/env.ts'

const client = new pg.Client({ connectionString: testEnv.databaseUrl })
const plans: string[] = []

beforeAll(async () => {
  await client.connect()
  client.on('notice', (notice) => plans.push(notice.message ?? ''))
})
afterAll(async () => {
  await client.end()
})

it('hashes the old/new join of the agents page trigger after a one-row update planned it', async () => {
  await client.query('begin')
  try {
    await client.query("load 'auto_explain'")
    await client.query('set local auto_explain.log_min_duration = 0')
    await client.query('set local auto_explain.log_nested_statements = on')
    await client.query('set local auto_explain.log_level = notice')
    // 200 agents of this transaction (rolled back at the end)
    const ids = (
      await client.query<{ id: string }>(
        `insert into public.agents (name, brokerage, city, state, zip_code, years_experience)
         select 'Transition Join ' || g, 'Fixture Realty', 'Fixtureville', 'MA', '99990', 1
         from generate_series(1, 200) g
         returning id`,
      )
    ).rows.map((row) => row.id)
    // one row first: the trigger's statement is planned (and its plan kept) for a one-row transition table
    await client.query('update public.agents set years_experience = coalesce(years_experience, 0) + 1 where id = $1', [
      ids[0],
    ])
    plans.length = 0
    await client.query(
      'update public.agents set years_experience = coalesce(years_experience, 0) + 1 where id = any($1::uuid[])',
      [ids],
    )
    const join = plans.filter((plan) => /from new_rows n\s+join old_rows o on o\.id = n\.id/.test(plan))
    expect(join.length).toBeGreaterThan(0)
    for (const plan of join) {
      expect(plan).toContain('Hash Join')
      expect(plan).not.toMatch(/Nested Loop[^\n]*\n[^\n]*Join Filter: \(\(n\.id = o\.id\)/)
    }
  } finally {
    await client.query('rollback')
  }
})

it('every trigger function that joins its new and old rows turns the nested loop off for that statement', async () => {
  // left as they are, each with why: track_side_pages also looks up public.properties in that statement, which only a
  // nested loop does by index; the blog webhooks compare a few posts or categories
  const exceptions = new Set(['track_side_pages', 'blog_posts_site_webhook', 'blog_categories_site_webhook'])
  const { rows } = await client.query<{ name: string; source: string }>(
    `select p.proname as name, p.prosrc as source
     from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname in ('public', 'private') and p.prorettype = 'trigger'::regtype
       and p.prosrc ~* '(new_rows|old_rows)\\s+\\w+\\s+join\\s+(old_rows|new_rows)'`,
  )
  const unguarded = rows
    .filter((row) => !exceptions.has(row.name))
    .filter((row) => !row.source.includes("set_config('enable_nestloop', 'off', true)"))
    .map((row) => row.name)
  expect(rows.length).toBeGreaterThanOrEqual(8)
  expect(unguarded).toEqual([])
})
