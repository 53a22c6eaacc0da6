/**
 * `getStaticPaths` entries for pages keyed by a slug (`/blog/<slug>`, `/blog/category/<slug>`): one route per item,
 * the item passed to the page as the prop `name`.
 */
export function pathsBySlug<K extends string, T extends { slug: string }>(
  items: T[],
  name: K,
): { params: { slug: string }; props: Record<K, T> }[] {
  return items.map((item) => ({ params: { slug: item.slug }, props: { [name]: item } as Record<K, T> }))
}
