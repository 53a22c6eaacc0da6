/**
 * The database side of the admin's operations: Rebuild now and the dashboard overview are admins-only with clear
 * errors, the scheduled-post job is scheduled with cron.schedule, a live post's old slug redirects (readable by visitors), every save keeps a revision with its
 * author, and merging leads refuses requests of another person.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { anonClient, signedInClient, sql } from '../support/env.ts'
import { daysFromNow, testData } from '../support/factories.ts'

const data = testData('admin-operations')
afterAll(() => data.cleanup())

const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6)}`

describe('admin-only operations', () => {
  it('refuses Rebuild now and the dashboard to a non-admin with 42501 and names the rule', async () => {
    const { client } = await signedInClient()
    const rebuild = await client.rpc('request_site_rebuild')
    expect(rebuild.error).toMatchObject({ code: '42501', message: 'Only administrators may rebuild the site.' })
    const overview = await client.rpc('dashboard_overview', { period_days: 30 })
    expect(overview.error).toMatchObject({ code: '42501', message: 'Only administrators may read the dashboard.' })
  })

  it('answers the dashboard in one object and refuses a period outside 1-366 days', async () => {
    const { client } = await signedInClient({ admin: true })
    const { data, error } = await client.rpc('dashboard_overview', { period_days: 30 })
    expect(error).toBeNull()
    expect(data).toMatchObject({
      period_days: 30,
      draft_posts: expect.any(Number),
      leads: { current: expect.any(Number), previous: expect.any(Number) },
    })
    const bad = await client.rpc('dashboard_overview', { period_days: 0 })
    expect(bad.error).toMatchObject({ code: '22023', message: 'period_days must be between 1 and 366, got 0.' })
  })

  it('refuses to merge requests of different people', async () => {
    const { client } = await signedInClient({ admin: true })
    const rows = await sql<{ id: string }>(
      `insert into public.report_requests (full_name, email) values ('A', $1), ('B', $2) returning id`,
      [`${unique('a')}@example.com`, `${unique('b')}@example.com`],
    )
    const { error } = await client.rpc('merge_leads', { keep_id: rows[0]!.id, merge_ids: [rows[1]!.id] })
    expect(error).toMatchObject({ code: '22023', message: 'Only requests with the same email can be merged.' })
    expect(
      await sql(`select 1 from public.report_requests where id = any($1)`, [rows.map((row) => row.id)]),
    ).toHaveLength(2)
  })
})

describe('scheduled publications', () => {
  it('are checked every 30 seconds through cron.schedule', async () => {
    expect(await sql(`select schedule, command from cron.job where jobname = 'rebuild-for-due-posts'`)).toEqual([
      { schedule: '30 seconds', command: 'select private.request_site_build_if_due()' },
    ])
  })

  it('have one scheduler: the hosted step after enabling pg_cron schedules the same 30-second job, not a second one', async () => {
    const [scheduled] = await sql<{ id: string }>('select private.schedule_site_rebuilds()::text as id')
    const jobs = await sql<{ jobid: string; jobname: string; schedule: string }>(
      `select jobid::text, jobname, schedule from cron.job where command like '%request_site_build_if_due%'`,
    )
    expect(jobs).toEqual([{ jobid: scheduled!.id, jobname: 'rebuild-for-due-posts', schedule: '30 seconds' }])
  })
})

describe('slug redirects and revisions', () => {
  it("keeps a live post's old slug as a redirect visitors can read, until a post takes the slug back", async () => {
    const { client, userId } = await signedInClient({ admin: true })
    const oldSlug = unique('matrix-old')
    const newSlug = unique('matrix-new')
    const postId = await data.post({
      title: oldSlug,
      slug: oldSlug,
      status: 'published',
      publishedAt: daysFromNow(-400),
    })
    const moved = await client.from('blog_posts').update({ slug: newSlug }).eq('id', postId).select('id')
    expect(moved.error).toBeNull()
    const visitors = await anonClient()
      .from('blog_post_redirects')
      .select('old_slug, blog_posts(slug)')
      .eq('old_slug', oldSlug)
    expect(visitors.data).toEqual([{ old_slug: oldSlug, blog_posts: { slug: newSlug } }])

    const revisions = await sql<{ saved_by: string | null; slug: string }>(
      `select saved_by::text, snapshot->>'slug' as slug from public.blog_post_revisions where post_id = $1 order by id`,
      [postId],
    )
    expect(revisions).toEqual([
      { saved_by: null, slug: oldSlug },
      { saved_by: userId, slug: newSlug },
    ])

    await client.from('blog_posts').update({ slug: oldSlug }).eq('id', postId)
    expect(
      await sql(`select old_slug from public.blog_post_redirects where post_id = $1 order by old_slug`, [postId]),
    ).toEqual([{ old_slug: newSlug }])
  })
})
