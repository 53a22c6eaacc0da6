/** The post-media bucket's limits (migration 20261124010000), checked before uploading so the operator gets the message at once. */
export const POST_MEDIA_MAX_BYTES = 5 * 1024 * 1024
export const POST_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif'] as const

/** Why `file` cannot go to post-media, or null when it can (the same limits the bucket enforces). */
export function postMediaProblem(file: { name: string; size: number; type: string }): string | null {
  if (!(POST_MEDIA_TYPES as readonly string[]).includes(file.type)) {
    return `${file.name} is not a JPEG, PNG, WebP, AVIF or GIF image.`
  }
  if (file.size > POST_MEDIA_MAX_BYTES) return `${file.name} is larger than 5 MB.`
  return null
}
