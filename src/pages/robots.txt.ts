import type { APIRoute } from 'astro'

/**
 * robots.txt, generated rather than kept in public/ because the Sitemap line must be an absolute URL
 * (sitemaps.org) and the site's origin comes from SITE_URL at build time.
 */
export const GET: APIRoute = ({ site }) => {
  if (!site) throw new Error('robots.txt needs `site` in astro.config.mjs to build the Sitemap URL')
  const body = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /admin/',
    '',
    `Sitemap: ${new URL('/sitemap.xml', site).href}`,
    '',
  ].join('\n')
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
}
