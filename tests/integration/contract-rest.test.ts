/**
 * Contract suite, PostgREST part: supabase-js against the local stand-in for every Data API feature the app relies
 * on. Each assertion is what hosted PostgREST answers; upgrading @supabase/lite must keep this suite green.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anonClient, serviceClient, signedInClient, sql, testEnv } from '../support/env.ts'
import { waitFor } from '../support/wait-for.ts'

const service = serviceClient()
const tag = `contract-${Date.now()}`
let categoryId: string
const postIds: string[] = []

beforeAll(async () => {
  const { data: category, error } = await service
    .from('blog_categories')
    .insert({ name: `Contract ${tag}`, slug: tag, description: 'fixture' })
    .select('id')
    .single()
  if (error) throw error
  categoryId = category.id
  const rows = [1, 2, 3, 4, 5].map((n) => ({
    title: `${tag} Post ${n}${n === 3 ? ' Zebra' : ''}`,
    slug: `${tag}-post-${n}`,
    content: `<h2>Section ${n}</h2><p>Body</p>`,
    excerpt: n === 4 ? 'mentions zebra crossings' : `excerpt ${n}`,
    category_id: categoryId,
    status: n <= 4 ? 'published' : 'draft',
    published_at: n <= 4 ? new Date(Date.UTC(2026, 0, n, 3, 4, 5, 123)).toISOString() : null,
    hack_density_score: n * 1.5,
    insights: n % 2 ? ['negotiate', `tip-${n}`] : ['inspect'],
    unique_insights: n % 2 ? 2 : 1,
  }))
  const { data, error: insertError } = await service.from('blog_posts').insert(rows).select('id')
  if (insertError) throw insertError
  postIds.push(...data.map((row) => row.id))
})

afterAll(async () => {
  await sql('delete from public.blog_posts where slug like $1', [`${tag}%`])
  await sql('delete from public.blog_categories where slug = $1', [tag])
})

describe('reads', () => {
  it('embeds a to-one resource and filters through it with !inner', async () => {
    const { data, error } = await anonClient()
      .from('blog_posts')
      .select('slug, blog_categories!inner(slug, name)')
      .eq('blog_categories.slug', tag)
      .order('slug')
    expect(error).toBeNull()
    expect(data).toHaveLength(4)
    expect(data![0]).toEqual({ slug: `${tag}-post-1`, blog_categories: { slug: tag, name: `Contract ${tag}` } })
  })

  it('embeds a to-many resource', async () => {
    const { data, error } = await anonClient()
      .from('blog_categories')
      .select('slug, blog_posts(slug)')
      .eq('slug', tag)
      .single()
    expect(error).toBeNull()
    expect(data!.blog_posts.map((post) => post.slug).sort()).toEqual([1, 2, 3, 4].map((n) => `${tag}-post-${n}`))
  })

  it('combines or() with ilike across columns', async () => {
    const { data, error } = await anonClient()
      .from('blog_posts')
      .select('slug')
      .like('slug', `${tag}%`)
      .or('title.ilike.%zebra%,excerpt.ilike.%ZEBRA%')
      .order('slug')
    expect(error).toBeNull()
    expect(data!.map((row) => row.slug)).toEqual([`${tag}-post-3`, `${tag}-post-4`])
  })

  it('orders, ranges and counts exactly with Content-Range', async () => {
    const { data, count, error } = await anonClient()
      .from('blog_posts')
      .select('slug', { count: 'exact' })
      .like('slug', `${tag}%`)
      .order('published_at', { ascending: false })
      .range(1, 2)
    expect(error).toBeNull()
    expect(count).toBe(4)
    expect(data!.map((row) => row.slug)).toEqual([`${tag}-post-3`, `${tag}-post-2`])
    const response = await fetch(`${testEnv.url}/rest/v1/blog_posts?select=slug&slug=like.${tag}*&order=slug&limit=2`, {
      headers: { apikey: testEnv.anonKey, Prefer: 'count=exact' },
    })
    expect(response.headers.get('content-range')).toBe('0-1/4')
  })

  it('limits', async () => {
    const { data } = await anonClient().from('blog_posts').select('slug').like('slug', `${tag}%`).order('slug').limit(1)
    expect(data).toEqual([{ slug: `${tag}-post-1` }])
  })

  it('filters arrays with cs and ov, and values with in', async () => {
    const client = anonClient()
    const contains = await client
      .from('blog_posts')
      .select('slug')
      .like('slug', `${tag}%`)
      .contains('insights', ['negotiate'])
      .order('slug')
    expect(contains.data!.map((row) => row.slug)).toEqual([`${tag}-post-1`, `${tag}-post-3`])
    const overlaps = await client
      .from('blog_posts')
      .select('slug')
      .like('slug', `${tag}%`)
      .overlaps('insights', ['inspect', 'tip-3'])
      .order('slug')
    expect(overlaps.data!.map((row) => row.slug)).toEqual([`${tag}-post-2`, `${tag}-post-3`, `${tag}-post-4`])
    const inList = await client
      .from('blog_posts')
      .select('slug')
      .in('slug', [`${tag}-post-1`, `${tag}-post-4`, `${tag}-post-5`])
      .order('slug')
    expect(inList.data!.map((row) => row.slug)).toEqual([`${tag}-post-1`, `${tag}-post-4`])
  })

  it('renders timestamps and numerics as PostgREST does', async () => {
    const { data } = await anonClient()
      .from('blog_posts')
      .select('published_at, hack_density_score')
      .eq('slug', `${tag}-post-1`)
      .single()
    expect(data!.published_at).toBe('2026-01-01T03:04:05.123+00:00')
    expect(data!.hack_density_score).toBe(1.5)
  })
})

describe('single and maybeSingle', () => {
  it('single returns one object', async () => {
    const { data, error } = await anonClient().from('blog_posts').select('slug').eq('slug', `${tag}-post-2`).single()
    expect(error).toBeNull()
    expect(data).toEqual({ slug: `${tag}-post-2` })
  })

  it('single on several rows is 406 PGRST116', async () => {
    const { error, status } = await anonClient().from('blog_posts').select('slug').like('slug', `${tag}%`).single()
    expect(status).toBe(406)
    expect(error!.code).toBe('PGRST116')
  })

  it('single on no rows is 406 PGRST116; maybeSingle is null', async () => {
    const single = await anonClient().from('blog_posts').select('slug').eq('slug', `${tag}-missing`).single()
    expect(single.status).toBe(406)
    expect(single.error!.code).toBe('PGRST116')
    const maybe = await anonClient().from('blog_posts').select('slug').eq('slug', `${tag}-missing`).maybeSingle()
    expect(maybe.error).toBeNull()
    expect(maybe.data).toBeNull()
  })
})

describe('writes', () => {
  it('insert returning an embedded resource with single() returns the object', async () => {
    const { data, error, status } = await service
      .from('blog_posts')
      .insert({ title: `${tag} embedded`, slug: `${tag}-embedded`, content: '<p>x</p>', category_id: categoryId })
      .select('slug, status, blog_categories(slug)')
      .single()
    expect(error).toBeNull()
    expect(status).toBe(201)
    expect(data).toEqual({ slug: `${tag}-embedded`, status: 'draft', blog_categories: { slug: tag } })
  })

  it('update and delete return the changed rows', async () => {
    const updated = await service
      .from('blog_posts')
      .update({ excerpt: 'changed' })
      .eq('slug', `${tag}-embedded`)
      .select('slug, excerpt')
    expect(updated.error).toBeNull()
    expect(updated.data).toEqual([{ slug: `${tag}-embedded`, excerpt: 'changed' }])
    const deleted = await service.from('blog_posts').delete().eq('slug', `${tag}-embedded`).select('slug')
    expect(deleted.data).toEqual([{ slug: `${tag}-embedded` }])
    expect(await sql('select 1 from public.blog_posts where slug = $1', [`${tag}-embedded`])).toHaveLength(0)
  })

  it('a unique violation is 409 with code 23505', async () => {
    const { error, status } = await service
      .from('blog_posts')
      .insert({ title: 'dup', slug: `${tag}-post-1`, content: 'x' })
    expect(status).toBe(409)
    expect(error!.code).toBe('23505')
  })

  it('a check violation is 400 with code 23514 and the failing row', async () => {
    const { error, status } = await service.from('blog_categories').insert({ name: `${tag} bad`, slug: 'Not A Slug' })
    expect(status).toBe(400)
    expect(error!.code).toBe('23514')
    expect(error!.message).toContain('blog_categories_slug_check')
  })

  it('an RLS refusal is 401 for anon and 403 for a signed-in user', async () => {
    const anon = await anonClient()
      .from('blog_posts')
      .insert({ title: 'x', slug: `${tag}-anon`, content: 'x' })
    expect(anon.status).toBe(401)
    expect(anon.error!.code).toBe('42501')
    const { client } = await signedInClient()
    const user = await client.from('blog_posts').insert({ title: 'x', slug: `${tag}-user`, content: 'x' })
    expect(user.status).toBe(403)
    expect(user.error!.code).toBe('42501')
  })
})

describe('rpc', () => {
  it("calls a SQL function with the caller's identity", async () => {
    expect((await anonClient().rpc('is_admin')).data).toBe(false)
    const { client } = await signedInClient({ admin: true })
    const { data, error } = await client.rpc('is_admin')
    expect(error).toBeNull()
    expect(data).toBe(true)
  })

  it('answers 404 PGRST202 for an RPC that does not exist, so a renamed function fails its callers by name', async () => {
    const { error, status } = await anonClient().rpc(
      'analytics_summary_renamed' as never,
      { period_start: '2001-03-01T00:00:00Z' } as never,
    )
    expect(status).toBe(404)
    expect(error).toMatchObject({ code: 'PGRST202' })
    expect(error!.message).toContain('public.analytics_summary_renamed')
  })

  it('a security-invoker function may call auth.uid() (gap 5)', async () => {
    await sql(`create or replace function public.contract_whoami() returns uuid language sql stable as $$ select auth.uid() $$;
      grant execute on function public.contract_whoami() to anon, authenticated;`)
    const { client, userId } = await signedInClient()
    try {
      // Like PostgREST, the API reloads its schema cache when notified of DDL: poll until it knows the function.
      const { data, error } = await waitFor(
        async () => {
          const result = await client.rpc('contract_whoami' as never)
          return result.error?.code === 'PGRST202' ? undefined : result
        },
        'the API to load contract_whoami',
        5_000,
      )
      expect(error).toBeNull()
      expect(data).toBe(userId)
    } finally {
      await sql('drop function public.contract_whoami()')
    }
  })
})

describe('tokens', () => {
  it('a bearer that is not a JWT is 401 PGRST301 (gap 4)', async () => {
    const response = await fetch(`${testEnv.url}/rest/v1/blog_posts?select=slug&limit=1`, {
      headers: { apikey: testEnv.anonKey, Authorization: 'Bearer not-a-jwt' },
    })
    expect(response.status).toBe(401)
    expect((await response.json()).code).toBe('PGRST301')
  })

  it('a JWT signed with another secret is 401 PGRST301', async () => {
    const { signJwt } = await import('../../supabase/local/jwt.ts')
    const forged = await signJwt('another-secret-that-is-long-enough-1234', { role: 'service_role' }, 60)
    const response = await fetch(`${testEnv.url}/rest/v1/blog_posts?select=slug&limit=1`, {
      headers: { apikey: testEnv.anonKey, Authorization: `Bearer ${forged}` },
    })
    expect(response.status).toBe(401)
    expect((await response.json()).code).toBe('PGRST301')
  })

  it('an expired JWT is 401 PGRST303', async () => {
    const { signJwt } = await import('../../supabase/local/jwt.ts')
    const expired = await signJwt(testEnv.jwtSecret, {
      role: 'authenticated',
      sub: crypto.randomUUID(),
      exp: Math.floor(Date.now() / 1000) - 10,
    })
    const response = await fetch(`${testEnv.url}/rest/v1/blog_posts?select=slug&limit=1`, {
      headers: { apikey: testEnv.anonKey, Authorization: `Bearer ${expired}` },
    })
    expect(response.status).toBe(401)
    expect((await response.json()).code).toBe('PGRST303')
  })

  it('a request without an API key is refused', async () => {
    const response = await fetch(`${testEnv.url}/rest/v1/blog_posts?select=slug`)
    expect(response.status).toBe(401)
  })
})
