/**
 * The Supabase API as the admin's component tests see it: each test answers the requests it expects
 * (`answerApi('POST', '/rest/v1/blog_posts', handler)`) and reads what was sent (`apiRequests`). A request nobody
 * answers gets a PostgREST-style 404, so a component under test shows its error state instead of hanging.
 */
type Handler = (request: Request) => Response | Promise<Response>

const handlers = new Map<string, Handler>()
const sent: { method: string; path: string; search: string; body: unknown }[] = []

/** Answers `method` requests to `path` (e.g. '/rest/v1/blog_posts', without the query string) with `handler`. */
export function answerApi(method: string, path: string, handler: Handler): void {
  handlers.set(`${method} ${path}`, handler)
}

/** Every request sent since the test began: method, path, query string and the parsed JSON body (or null). */
export function apiRequests() {
  return sent
}

export function resetApi(): void {
  handlers.clear()
  sent.length = 0
}

export async function routeApiRequest(request: Request): Promise<Response> {
  const url = new URL(request.url)
  const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text()
  sent.push({ method: request.method, path: url.pathname, search: url.search, body: text ? JSON.parse(text) : null })
  const handler = handlers.get(`${request.method} ${url.pathname}`)
  if (handler)
    return handler(
      new Request(request.url, { method: request.method, headers: request.headers, body: text || undefined }),
    )
  return Response.json(
    { message: `No answer for ${request.method} ${url.pathname}`, code: 'PGRST000' },
    { status: 404 },
  )
}
