/**
 * agent-photo: the agent who claimed a profile sets or removes its photo (contract: @shared/agent-claims.ts).
 * The browser first uploads the image into the agent-photos bucket under `<agent id>/` (Storage enforces the
 * bucket's limits, 5 MB and raster image types, and its RLS lets only the owner write there), then POSTs
 * {agentId, objectName} with the user's bearer token. This function checks the object server-side: at most 5 MB and
 * its first bytes a JPEG, PNG, GIF, WebP or AVIF image whatever Content-Type the upload declared (else the object is
 * deleted and the answer is 400 naming `photo`), then sets agents.photo_url to its public URL through
 * public.set_agent_photo (403 unless the caller owns the profile) and deletes the photo it replaces.
 * {agentId, objectName: null} removes the photo. 20 changes per user an hour (429). Answers 200 {photoUrl}.
 * verify_jwt = false (supabase/config.toml): Auth checks the token here.
 */
import { rpcFailure, verifiedCaller } from '@shared/agent-claim-server.ts'
import {
  AGENT_PHOTO_BUCKET,
  AGENT_PHOTO_MAX_BYTES,
  AgentPhotoRequestSchema,
  CLAIM_LIMITS,
  imageTypeOf,
} from '@shared/agent-claims.ts'
import { HttpError, parseBody, serveFunction } from '@shared/http.ts'
import { enforceRateLimits, rateLimitSecret } from '@shared/rate-limit.ts'
import { platformEnv, serviceClient } from '@shared/supabase.ts'

const secret = rateLimitSecret(Deno.env.get('REPORT_REQUEST_HMAC_SECRET'))
platformEnv()
const admin = serviceClient()
const PUBLIC_PREFIX = `/storage/v1/object/public/${AGENT_PHOTO_BUCKET}/`

/** The object name of one of our photo URLs, or null for any other URL. */
function objectOf(url: string | null): string | null {
  if (!url) return null
  const index = url.indexOf(PUBLIC_PREFIX)
  return index === -1 ? null : decodeURIComponent(url.slice(index + PUBLIC_PREFIX.length))
}

serveFunction({
  name: 'agent-photo',
  cors: 'site',
  failureMessage: 'Could not change the photo. Please try again later.',
  async handle({ request, body, json }) {
    const input = parseBody(AgentPhotoRequestSchema, body)
    const user = await verifiedCaller(request)
    await enforceRateLimits(
      admin,
      secret,
      [{ kind: 'agent-photo-user', value: user.id, limit: CLAIM_LIMITS.photosPerUser, windowSeconds: 3600 }],
      'You have changed the photo many times this hour. Please wait a while.',
    )
    let photoUrl: string | null = null
    if (input.objectName !== null) {
      if (!input.objectName.startsWith(`${input.agentId}/`))
        throw new HttpError(400, 'objectName must be in the agent’s own folder', {}, { objectName: 'Wrong folder' })
      const { data: file, error } = await admin.storage.from(AGENT_PHOTO_BUCKET).download(input.objectName)
      if (error || !file) throw new HttpError(400, 'Upload the photo first.', {}, { photo: 'Upload the photo first.' })
      const bytes = new Uint8Array(await file.arrayBuffer())
      const problem =
        bytes.byteLength > AGENT_PHOTO_MAX_BYTES
          ? 'The photo must be at most 5 MB.'
          : imageTypeOf(bytes) === null
            ? 'The file is not a JPEG, PNG, WebP, AVIF or GIF image.'
            : null
      if (problem) {
        await admin.storage.from(AGENT_PHOTO_BUCKET).remove([input.objectName])
        throw new HttpError(400, problem, {}, { photo: problem })
      }
      photoUrl = admin.storage.from(AGENT_PHOTO_BUCKET).getPublicUrl(input.objectName).data.publicUrl
    }
    const { data: previous, error } = await admin.rpc('set_agent_photo', {
      owner: user.id,
      agent: input.agentId,
      // null clears the photo (the generated type cannot say a SQL argument may be null)
      photo_url: photoUrl as string,
    })
    if (error) rpcFailure(error)
    const replaced = objectOf(previous)
    if (replaced && replaced !== input.objectName) {
      const { error: removeError } = await admin.storage.from(AGENT_PHOTO_BUCKET).remove([replaced])
      if (removeError) console.error(`agent-photo: could not delete ${replaced}: ${removeError.message}`)
    }
    return json({ photoUrl })
  },
})
