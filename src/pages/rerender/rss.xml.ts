/**
 * rss.xml rendered on demand for the local builder (see ./[page].astro): the same feed as the prerendered /rss.xml over
 * the posts of now.
 */
export { GET } from '../rss.xml.ts'
export const prerender = false
