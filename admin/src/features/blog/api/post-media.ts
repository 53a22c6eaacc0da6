import { dataOrThrow, supabase } from '@/lib/supabase'
import { postMediaProblem } from './post-media-rules'

/** The Storage bucket of post images (migration 20261124010000: public read, admin write). */
export const POST_MEDIA_BUCKET = 'post-media'

/**
 * Uploads an image to post-media under `posts/<random>-<safe name>` and returns its public URL.
 * @throws Error naming the file's problem (type, size) or the Storage API's message (e.g. RLS refusal).
 */
export async function uploadPostMedia(file: File): Promise<string> {
  const problem = postMediaProblem(file)
  if (problem) throw new Error(problem)
  const safeName =
    file.name
      .toLowerCase()
      .replace(/[^a-z0-9.]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'image'
  const objectPath = `posts/${crypto.randomUUID()}-${safeName}`
  // The bytes, not the File: supabase-js sends a File as multipart form data under an empty field name, which the local
  // stand-in's storage (@supabase/lite) refuses ("Missing file in multipart upload"); a raw body with its
  // Content-Type is accepted by it and by hosted Storage alike.
  const body = await file.arrayBuffer()
  await dataOrThrow(
    supabase.storage.from(POST_MEDIA_BUCKET).upload(objectPath, body, { contentType: file.type, upsert: false }),
  ).catch((error: Error) => {
    throw new Error(`Upload failed: ${error.message}`, { cause: error })
  })
  return supabase.storage.from(POST_MEDIA_BUCKET).getPublicUrl(objectPath).data.publicUrl
}
