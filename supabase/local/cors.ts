/** CORS for every route of the local API, as the hosted API gateway sets it. */

const exposedHeaders = 'Content-Range, Content-Location, Preference-Applied, X-Supabase-Api-Version'

/**
 * CORS preflight as the hosted API gateway answers it: any origin, the requested headers echoed (supabase-js sends
 * authorization, apikey, x-client-info, content-type, prefer, range...). lite's auth routes refused `authorization`.
 */
export function preflight(request: Request): Response {
  return new Response(null, {
    status: 204,
    headers: {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
      'Access-Control-Allow-Headers':
        request.headers.get('access-control-request-headers') ??
        'authorization, apikey, x-client-info, content-type, prefer, range, accept-profile, content-profile, x-supabase-api-version',
      'Access-Control-Max-Age': '86400',
    },
  })
}

/** Adds the gateway's CORS headers to an answer that does not carry them yet. */
export function withCors(response: Response): Response {
  if (response.headers.get('access-control-allow-origin') && response.headers.get('access-control-expose-headers'))
    return response
  const headers = new Headers(response.headers)
  headers.set('Access-Control-Allow-Origin', '*')
  headers.set('Access-Control-Expose-Headers', exposedHeaders)
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
}
