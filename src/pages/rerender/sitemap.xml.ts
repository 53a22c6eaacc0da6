/**
 * sitemap.xml rendered on demand for the local builder (see ./[page].astro): the same answer as the prerendered
 * /sitemap.xml over the data of now.
 */
export { GET } from '../sitemap.xml.ts'
export const prerender = false
