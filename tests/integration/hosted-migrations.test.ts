/**
 * `supabase db push` on a fresh hosted project, checked here: every migration is applied to a bare PostgreSQL 17
 * that has only what a new hosted project has before the first push (the API roles, the `auth` schema, the
 * `extensions` schema, `net` standing in for pg_net, `vault` standing in for supabase_vault; no
 * `supabase_functions`, which the dashboard creates only when Database Webhooks are enabled), then the configure
 * steps of docs/deploy.md run and both webhooks are shown to fire. A second database has Database Webhooks enabled
 * before the push (the other order of dashboard toggles) and must apply the same migrations.
 *
 * Each case gets its own database in the test cluster (dropped afterwards), so nothing here is visible to the
 * database the other test files inspect; roles are cluster-wide, as on hosted, and the bootstrap is idempotent.
 */
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { sqlAt } from '../support/sql.ts'
import { provisionAuthSchema } from '../../supabase/local/api.ts'
import { listMigrations, migrate, runSqlFile } from '../../supabase/local/migrate.ts'
import { testEnv } from '../support/env.ts'
import { daysFromNow, dbAt, insertPosts } from '../support/factories.ts'

const root = path.resolve(import.meta.dirname, '../..')
const supabaseDir = path.join(root, 'supabase')
const localDir = path.join(supabaseDir, 'local')
const JWT_SECRET = 'hosted-migrations-test-secret-0123456789'
const NEW_LEAD_URL = 'https://abcdefghijklmnop.supabase.co/functions/v1/notify-new-lead'
const BUILD_HOOK_URL = 'https://api.netlify.com/build_hooks/0123456789abcdef'

// The SQL the dashboard runs for Integrations → Database Webhooks → Enable (schema, hooks table, trigger function).
const ENABLE_WEBHOOKS_IN_DASHBOARD = `
  create schema supabase_functions;
  create table supabase_functions.hooks (id bigserial primary key, hook_table_id integer not null,
    hook_name text not null, created_at timestamptz not null default now(), request_id bigint);
  create function supabase_functions.http_request() returns trigger language plpgsql as $$
  begin
    perform net.http_post(TG_ARGV[0], '{}'::jsonb, '{}'::jsonb, TG_ARGV[2]::jsonb, TG_ARGV[4]::integer);
    return new;
  end $$;
  comment on function supabase_functions.http_request() is 'the platform''s own';
`

const created: string[] = []
const databaseUrl = (name: string) => {
  const url = new URL(testEnv.databaseUrl)
  url.pathname = `/${name}`
  return url.toString()
}

/** A database with what a new hosted project has; `before` runs first (a dashboard toggle). */
async function hostedLikeDatabase(name: string, before?: string): Promise<string> {
  const unique = `${name}_${process.pid}_${Date.now().toString(36)}`
  await sqlAt(testEnv.databaseUrl, `create database ${unique}`)
  created.push(unique)
  const url = databaseUrl(unique)
  await runSqlFile(url, path.join(localDir, 'bootstrap.sql'))
  await provisionAuthSchema(url, JWT_SECRET)
  await runSqlFile(url, path.join(localDir, 'bootstrap-after-auth.sql'))
  if (before) await sqlAt(url, before)
  return url
}

afterAll(async () => {
  for (const name of created) await sqlAt(testEnv.databaseUrl, `drop database if exists ${name} with (force)`)
})

describe('migrations on a fresh hosted project', () => {
  const migrationCount = listMigrations(path.join(supabaseDir, 'migrations')).length

  it('apply in one push without Database Webhooks enabled, and the configured webhooks fire', async () => {
    const url = await hostedLikeDatabase('bare_hosted')
    const [before] = await sqlAt<{ present: boolean }>(
      url,
      `select to_regnamespace('supabase_functions') is not null as present`,
    )
    expect(before!.present).toBe(false)

    const result = await migrate(url, supabaseDir, { seed: true })
    expect(result.applied).toHaveLength(migrationCount)
    expect(result.seeded).toBe(true)

    // none of our triggers depends on a dashboard-made function
    const dashboardTriggers = await sqlAt(
      url,
      `
      select t.tgname from pg_trigger t join pg_proc p on p.oid = t.tgfoid join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'supabase_functions' and not t.tgisinternal`,
    )
    expect(dashboardTriggers).toEqual([])

    // docs/deploy.md: the two configure steps
    await sqlAt(url, `select private.configure_webhook('new_lead', $1)`, [NEW_LEAD_URL])
    await sqlAt(url, `select private.configure_webhook('site_build', $1, '')`, [BUILD_HOOK_URL])
    await sqlAt(url, `update private.site_build_settings set builder = 'build_hook' where id`)

    await sqlAt(
      url,
      `insert into public.report_requests (full_name, email, agent_name, agent_location)
                      values ('Hosted Lead', 'lead@example.com', 'Jane Agent', 'Austin, TX')`,
    )
    await insertPosts(
      [{ title: 'Hosted post', slug: 'hosted-post', content: '<p>x</p>', status: 'published' }],
      dbAt(url),
    )

    const sent = await sqlAt<{ url: string; headers: Record<string, string>; body: Record<string, unknown> }>(
      url,
      `select url, headers, body from net.http_request_queue order by id`,
    )
    expect(sent.map((request) => request.url)).toEqual([NEW_LEAD_URL, BUILD_HOOK_URL])
    const [lead, build] = sent
    expect(lead!.body).toMatchObject({ type: 'INSERT', table: 'report_requests', schema: 'public', old_record: null })
    expect((lead!.body.record as { email: string }).email).toBe('lead@example.com')
    const [verified] = await sqlAt<{ ok: boolean }>(url, 'select public.verify_new_lead_webhook_secret($1) as ok', [
      lead!.headers['x-webhook-secret'],
    ])
    expect(verified!.ok).toBe(true)
    expect(build!.body).toEqual({ reason: 'post published: hosted-post', source: 'database webhook' })
    expect(build!.headers['x-webhook-secret']).toBeUndefined()
    const builds = await sqlAt<{ status: string; trigger_reason: string }>(
      url,
      'select status, trigger_reason from public.site_builds',
    )
    expect(builds).toEqual([{ status: 'requested', trigger_reason: 'post published: hosted-post' }])
  })

  it('rebuild on schedule only when a scheduled post went live since the last request', async () => {
    const url = await hostedLikeDatabase('bare_hosted_schedule')
    await migrate(url, supabaseDir, { seed: false })
    await sqlAt(url, `select private.configure_webhook('site_build', $1, '')`, [BUILD_HOOK_URL])
    const due = async () =>
      (await sqlAt<{ id: string | null }>(url, 'select private.request_site_build_if_due() as id'))[0]!.id
    const reasons = async () =>
      (
        await sqlAt<{ reason: string }>(url, `select body->>'reason' as reason from net.http_request_queue order by id`)
      ).map((r) => r.reason)

    await insertPosts(
      [
        {
          title: 'Later',
          slug: 'later-post',
          content: '<p>x</p>',
          status: 'published',
          publishedAt: daysFromNow(1 / 24),
        },
      ],
      dbAt(url),
    )
    expect(await due()).toBeNull()
    // the hour passes: move the publish time into the past without firing the edit webhook
    await sqlAt(
      url,
      `set session_replication_role = replica;
                      update public.blog_posts set published_at = now() - interval '1 minute' where slug = 'later-post';
                      update private.site_build_settings set last_requested_at = now() - interval '2 hours' where id;`,
    )
    expect(await due()).not.toBeNull()
    expect(await due()).toBeNull()
    expect(await reasons()).toEqual(['scheduled post live: later-post'])

    await expect(sqlAt(url, 'select private.schedule_site_rebuilds()')).rejects.toMatchObject({
      code: '55000',
      message: 'pg_cron is not enabled: enable it under Database → Extensions (pg_cron), then run this again',
    })
    await expect(sqlAt(url, `select private.configure_webhook('site_build', 'ftp://x', '')`)).rejects.toMatchObject({
      code: '22023',
      message: 'url must be an absolute http(s) URL, got ftp://x',
    })
  })

  it('apply in one push when Database Webhooks were enabled first, keeping the platform function', async () => {
    const url = await hostedLikeDatabase('hosted_webhooks_enabled', ENABLE_WEBHOOKS_IN_DASHBOARD)
    const result = await migrate(url, supabaseDir, { seed: false })
    expect(result.applied).toHaveLength(migrationCount)
    const [fn] = await sqlAt<{ comment: string }>(
      url,
      `select obj_description('supabase_functions.http_request()'::regprocedure) as comment`,
    )
    expect(fn!.comment).toBe("the platform's own")
  })
})
