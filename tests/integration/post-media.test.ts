/**
 * The post-media Storage bucket through supabase-js against the stand-in's /storage/v1 (lite's Storage API on our
 * Postgres): admins upload, anyone reads the public URL, a signed-in non-admin and anon are refused by the
 * storage.objects policies, and the bucket's limits (5 MB, raster image types) refuse other files with the storage
 * API's own status and message. Uploaded objects are removed after each test.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { anonClient, serviceClient, signedInClient } from '../support/env.ts'

const PNG = fs.readFileSync(path.resolve(import.meta.dirname, '../fixtures/media/house-64x40.png'))
const bucket = 'post-media'
const uploaded: string[] = []
let n = 0
const objectName = (ext = 'png') => {
  const name = `tests/${Date.now().toString(36)}-${(n += 1)}.${ext}`
  uploaded.push(name)
  return name
}

afterEach(async () => {
  const names = uploaded.splice(0)
  if (names.length > 0) await serviceClient().storage.from(bucket).remove(names)
})

describe('post-media bucket', () => {
  it('is public with a 5 MB limit and raster image types only', async () => {
    const { data, error } = await serviceClient().storage.getBucket(bucket)
    expect(error).toBeNull()
    expect(data).toMatchObject({ public: true, file_size_limit: 5242880 })
    expect(data?.allowed_mime_types).toEqual(['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif'])
  })

  it('an admin uploads an image that anyone then reads at its public URL', async () => {
    const { client } = await signedInClient({ admin: true })
    const name = objectName()
    const { data, error } = await client.storage.from(bucket).upload(name, PNG, { contentType: 'image/png' })
    expect(error).toBeNull()
    expect(data?.path).toBe(name)
    const url = anonClient().storage.from(bucket).getPublicUrl(name).data.publicUrl
    const response = await fetch(url)
    expect(response.status).toBe(200)
    expect(Buffer.from(await response.arrayBuffer()).equals(PNG)).toBe(true)
  })

  it('a signed-in non-admin cannot upload (storage.objects RLS)', async () => {
    const { client } = await signedInClient()
    const { data, error } = await client.storage.from(bucket).upload(objectName(), PNG, { contentType: 'image/png' })
    expect(data).toBeNull()
    expect(error).toMatchObject({ statusCode: '403' })
    expect(error?.message).toBe('new row violates row-level security policy')
  })

  it('anon cannot upload', async () => {
    const { data, error } = await anonClient()
      .storage.from(bucket)
      .upload(objectName(), PNG, { contentType: 'image/png' })
    expect(data).toBeNull()
    expect(error).toMatchObject({ statusCode: '403' })
    expect(error?.message).toBe('new row violates row-level security policy')
  })

  it('a signed-in non-admin cannot delete an admin upload', async () => {
    const name = objectName()
    expect(
      (await serviceClient().storage.from(bucket).upload(name, PNG, { contentType: 'image/png' })).error,
    ).toBeNull()
    const { client } = await signedInClient()
    await client.storage.from(bucket).remove([name])
    expect((await fetch(anonClient().storage.from(bucket).getPublicUrl(name).data.publicUrl)).status).toBe(200)
  })

  it('refuses a file over 5 MB even from an admin', async () => {
    const { client } = await signedInClient({ admin: true })
    const big = Buffer.alloc(5 * 1024 * 1024 + 1, 0)
    PNG.copy(big)
    const { data, error } = await client.storage.from(bucket).upload(objectName(), big, { contentType: 'image/png' })
    expect(data).toBeNull()
    expect(error).toMatchObject({ statusCode: '413' })
    expect(error?.message).toBe('The object exceeded the maximum allowed size of 5242880 bytes')
  })

  it('refuses a type outside the allowed images even from an admin', async () => {
    const { client } = await signedInClient({ admin: true })
    const { data, error } = await client.storage
      .from(bucket)
      .upload(objectName('html'), Buffer.from('<script>alert(1)</script>'), { contentType: 'text/html' })
    expect(data).toBeNull()
    expect(error).toMatchObject({ statusCode: '415' })
    expect(error?.message).toBe(
      'mime type text/html is not supported. Supported: image/jpeg, image/png, image/webp, image/avif, image/gif',
    )
  })
})
