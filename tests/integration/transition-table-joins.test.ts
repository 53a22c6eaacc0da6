/**
 * The statement triggers that compare a table's old and new rows (page versions, figures noting) join the two
 * transition tables by hashing, even when their plan was made for a few rows: PL/pgSQL keeps a statement's plan for
 * the session, and a nested loop cached from a one-row update then compared every pair of rows of a large one (an
 * import's metrics refresh updating 10,000 agents: 100 million comparisons, 70 s). The plans are read from
 * auto_explain, as the server ran them.
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
