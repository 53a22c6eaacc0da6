/**
 * /sitemap-<n>.xml rendered on demand for the local builder (see ./[page].astro): the same answer as the prerendered
 * file over the data of now.
 */
export { GET } from '../sitemap-[index].xml.ts'
export const prerender = false
