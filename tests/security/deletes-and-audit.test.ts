/**
 * Nothing an administrator deletes is gone for good, and every admin write is on record: a bulk DELETE is refused
 * before anything changes, a single delete moves the row to the trash (notes and revisions kept) and can be
 * restored, and public.audit_log holds who changed what, when, with the values before and after. Each case is named
 * after the rule it guards and runs as an aal2 administrator over the REST API, as the admin app does.
 */
import { describe, expect, it } from 'vitest'
import { anonClient, signedInClient, sql, testEnv } from '../support/env.ts'
import { daysFromNow, testData } from '../support/factories.ts'

const run = Date.now().toString(36)
const data = testData('deletes-and-audit')

async function leads(count: number, prefix: string): Promise<string[]> {
  const rows = await sql<{ id: string }>(
    `insert into public.report_requests (full_name, email)
     select $1 || ' ' || g, 'lead-' || $3 || '-' || g || '@example.com' from generate_series(1, $2::int) g returning id`,
    [`${prefix} ${run}`, count, `${prefix.toLowerCase().replaceAll(' ', '-')}-${run}`],
  )
  return rows.map((row) => row.id)
}

const cleanup = (ids: string[]) => sql('delete from public.report_requests where id = any($1::uuid[])', [ids])

describe('deletes can be undone', () => {
  it('a bulk DELETE of leads is refused and changes nothing', async () => {
    const ids = await leads(3, 'Bulk Target')
    await sql(`insert into public.lead_notes (report_request_id, body) values ($1, 'keep me')`, [ids[0]])
    try {
      const { client } = await signedInClient({ admin: true })
      const everything = await client.from('report_requests').delete().not('id', 'is', null)
      expect(everything.error).toMatchObject({
        code: '42501',
        message: 'Refused: a request may delete one row of report_requests at a time, so every delete can be restored.',
      })
      const some = await client.from('report_requests').delete().in('id', ids)
      expect(some.error?.code).toBe('42501')
      expect(
        await sql(
          `select count(*)::int as n from public.report_requests where id = any($1::uuid[]) and deleted_at is null`,
          [ids],
        ),
      ).toEqual([{ n: 3 }])
      expect(await sql(`select body from public.lead_notes where report_request_id = $1`, [ids[0]])).toEqual([
        { body: 'keep me' },
      ])
    } finally {
      await cleanup(ids)
    }
  })

  it('a single delete moves the lead to the trash with its notes, and restore brings it back', async () => {
    const [id] = await leads(1, 'Single Target')
    await sql(`insert into public.lead_notes (report_request_id, body) values ($1, 'called twice')`, [id])
    try {
      const { client, userId } = await signedInClient({ admin: true })
      const removed = await client.from('report_requests').delete().eq('id', id!)
      expect(removed.error).toBeNull()
      expect((await client.from('report_requests').select('id').eq('id', id!)).data).toEqual([])
      expect(
        await sql(`select deleted_by, deleted_at is not null as trashed from public.report_requests where id = $1`, [
          id,
        ]),
      ).toEqual([{ deleted_by: userId, trashed: true }])
      const trash = await client.rpc('trash_items', { item_type: 'lead' })
      expect(trash.data?.find((item) => item.id === id)).toMatchObject({ title: `Single Target ${run} 1` })

      const restored = await client.rpc('restore_lead', { lead_id: id! })
      expect(restored.error).toBeNull()
      expect((await client.from('report_requests').select('id, full_name').eq('id', id!)).data).toEqual([
        { id, full_name: `Single Target ${run} 1` },
      ])
      expect(await sql(`select body from public.lead_notes where report_request_id = $1`, [id])).toEqual([
        { body: 'called twice' },
      ])
    } finally {
      await cleanup([id!])
    }
  })

  it('a deleted post leaves the public site, keeps its revisions and comes back with restore', async () => {
    const slug = `trash-post-${run}`
    const postId = await data.post({
      title: slug,
      slug,
      content: '<p>v1</p>',
      status: 'published',
      publishedAt: daysFromNow(-1),
    })
    await sql(`update public.blog_posts set content = '<p>v2</p>' where id = $1`, [postId])
    try {
      const { client } = await signedInClient({ admin: true })
      const [{ revisions }] = await sql<{ revisions: number }>(
        `select count(*)::int as revisions from public.blog_post_revisions where post_id = $1`,
        [postId],
      )
      const deleted = await client.rpc('delete_post', { post_id: postId })
      expect(deleted.data).toEqual([{ id: postId, status: 'published', published_at: expect.any(String) }])
      expect((await anonClient().from('blog_posts').select('id').eq('slug', slug)).data).toEqual([])
      expect(
        await sql(`select count(*)::int as revisions from public.blog_post_revisions where post_id = $1`, [postId]),
      ).toEqual([{ revisions }])
      expect((await client.rpc('delete_post', { post_id: postId })).error?.code).toBe('P0002')

      expect((await client.rpc('restore_post', { post_id: postId })).error).toBeNull()
      expect((await anonClient().from('blog_posts').select('content').eq('slug', slug)).data).toEqual([
        { content: '<p>v2</p>' },
      ])
    } finally {
      await data.cleanup()
    }
  })

  it('a bulk DELETE of posts is refused too', async () => {
    const { client } = await signedInClient({ admin: true })
    // this file's own posts: other files add and remove posts meanwhile, so a count of every post would race them
    const own = await data.posts(
      [1, 2].map((n) => ({ title: data.unique(`Bulk ${n}`), slug: data.slug(`bulk-${n}`), status: 'published' })),
    )
    try {
      const everything = await client.from('blog_posts').delete().not('id', 'is', null)
      expect(everything.error?.code).toBe('42501')
      expect(
        await sql(
          `select count(*)::int as live from public.blog_posts where id = any($1::uuid[]) and deleted_at is null`,
          [own],
        ),
      ).toEqual([{ live: 2 }])
    } finally {
      await data.cleanup()
    }
  })

  it('only administrators at aal2 read, delete or restore the trash', async () => {
    const [id] = await leads(1, 'Trash Guard')
    await sql(`update public.report_requests set deleted_at = now() where id = $1`, [id])
    try {
      const { client: visitor } = await signedInClient()
      const { client: passwordOnly } = await signedInClient({ admin: true, aal1: true })
      for (const caller of [anonClient(), visitor, passwordOnly]) {
        expect((await caller.rpc('restore_lead', { lead_id: id! })).error?.code).toMatch(/^(42501|PGRST202)$/)
        expect((await caller.rpc('trash_items', { item_type: 'lead' })).error).not.toBeNull()
      }
      expect(
        await sql(`select deleted_at is not null as trashed from public.report_requests where id = $1`, [id]),
      ).toEqual([{ trashed: true }])
    } finally {
      await cleanup([id!])
    }
  })

  it('the service role still deletes for real (an erasure request)', async () => {
    const [id] = await leads(1, 'Erasure')
    const response = await fetch(`${testEnv.url}/rest/v1/report_requests?id=eq.${id}`, {
      method: 'DELETE',
      headers: { apikey: testEnv.serviceRoleKey, Authorization: `Bearer ${testEnv.serviceRoleKey}` },
    })
    expect(response.status).toBe(204)
    expect(await sql('select 1 from public.report_requests where id = $1', [id])).toEqual([])
  })
})

describe('every admin write is on record', () => {
  it('records who changed which lead, when, with the values before and after, readable by admins only', async () => {
    const [id] = await leads(1, 'Audited')
    try {
      const { client, userId, email } = await signedInClient({ admin: true })
      await client.from('report_requests').update({ status: 'contacted', notes: 'left a voicemail' }).eq('id', id!)
      await client.from('report_requests').delete().eq('id', id!)
      await client.rpc('restore_lead', { lead_id: id! })

      const { data, error } = await client
        .from('audit_log')
        .select('actor_id, actor_email, table_name, row_id, action, before, after, at')
        .eq('table_name', 'report_requests')
        .eq('row_id', id!)
        .order('id')
      expect(error).toBeNull()
      expect(data!.map(({ action, before, after }) => ({ action, before, after }))).toEqual([
        {
          action: 'update',
          before: { status: 'pending', notes: null, contacted_at: null },
          after: { status: 'contacted', notes: 'left a voicemail', contacted_at: expect.any(String) },
        },
        {
          action: 'trash',
          before: expect.objectContaining({ id, full_name: `Audited ${run} 1`, status: 'contacted', deleted_at: null }),
          after: { deleted_at: expect.any(String), deleted_by: userId },
        },
        {
          action: 'restore',
          before: { deleted_at: expect.any(String), deleted_by: userId },
          after: expect.objectContaining({ id, full_name: `Audited ${run} 1`, deleted_at: null, deleted_by: null }),
        },
      ])
      expect(data!.every((entry) => entry.actor_id === userId && entry.actor_email === email)).toBe(true)

      const { client: visitor } = await signedInClient()
      expect((await visitor.from('audit_log').select('id').eq('row_id', id!)).data).toEqual([])
      expect((await anonClient().from('audit_log').select('id').limit(1)).error?.code).toBe('42501')
    } finally {
      await cleanup([id!])
    }
  })

  it('nobody rewrites the record through the API, the service role included', async () => {
    const { client } = await signedInClient({ admin: true })
    const service = await fetch(`${testEnv.url}/rest/v1/audit_log?id=gt.0`, {
      method: 'DELETE',
      headers: { apikey: testEnv.serviceRoleKey, Authorization: `Bearer ${testEnv.serviceRoleKey}` },
    })
    expect(service.status).toBe(403)
    expect((await client.from('audit_log').delete().gt('id', 0)).error?.code).toBe('42501')
    expect((await client.from('audit_log').update({ actor_email: 'x' }).gt('id', 0)).error?.code).toBe('42501')
  })

  it('records role changes whoever makes them', async () => {
    const { userId } = await signedInClient()
    await sql(`insert into public.user_roles (user_id, role) values ($1, 'admin')`, [userId])
    expect(
      await sql(
        `select action, actor_id, after ->> 'role' as role from public.audit_log where table_name = 'user_roles' and row_id = $1`,
        [userId],
      ),
    ).toEqual([{ action: 'insert', actor_id: null, role: 'admin' }])
  })
})
