import type { APIRoute } from 'astro'
import { RERENDER_PAGE_HEADER } from '../integrations/rerender-routes-names'
import { GET as feed } from '../pages/rss.xml.ts'

/**
 * rss.xml rendered on demand for the local builder's patch (src/integrations/rerender-routes.ts): the same feed as the
 * prerendered /rss.xml over the posts of now.
 */
export const GET: APIRoute = async (context) => {
  const response = await feed(context)
  response.headers.set(RERENDER_PAGE_HEADER, 'rss')
  return response
}
export const prerender = false
