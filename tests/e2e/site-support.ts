/** Read-only (and fixture) access to the test database for the site browser tests. */
import { expect, type Page } from '@playwright/test'
import { sql } from './support.ts'

export { sql }

export interface PublicPostRow {
  title: string
  slug: string
  excerpt: string | null
  content: string
  category_slug: string | null
  category_name: string | null
}

/** The posts the prebuilt site shows: the anon "published" policy's rows (live, not in the trash), newest first. */
export function publicPosts(): Promise<PublicPostRow[]> {
  return sql<PublicPostRow>(
    `select p.title, p.slug, p.excerpt, p.content, c.slug as category_slug, c.name as category_name
       from public.blog_posts p left join public.blog_categories c on c.id = p.category_id
      where p.status = 'published' and p.published_at <= now() and p.deleted_at is null
      order by p.published_at desc`,
  )
}

/**
 * Waits until the React island exporting `component` has hydrated (Astro drops the island's `ssr` attribute then;
 * a client:interaction island is pointed at first, as a visitor's finger or mouse would),
 * so a click reaches React rather than the prebuilt HTML. Up to 20 s: loading React on a machine busy with other
 * test runs can take longer than the default 5 s.
 */
export async function waitForIsland(page: Page, component: string): Promise<void> {
  const island = page.locator(`astro-island[component-export="${component}"]`).first()
  if ((await island.getAttribute('client')) !== 'interaction') {
    await expect(island).not.toHaveAttribute('ssr', /.*/, { timeout: 20_000 })
    return
  }
  // client:interaction islands (src/lib/client-interaction.ts) load when the visitor first points at them; on a page
  // whose islands all wait, Astro's island runtime itself arrives after the first paint (src/lib/island-hydration.ts),
  // and a pointer event before it finds nobody listening, so point again until the island hydrates
  await expect(async () => {
    await island.dispatchEvent('pointerover')
    await expect(island).not.toHaveAttribute('ssr', /.*/, { timeout: 2_000 })
  }).toPass({ timeout: 20_000 })
}

/**
 * Waits until the header's script has run (src/lib/site-header.ts marks the header `data-enhanced`): BaseLayout
 * loads it after the first paint, so a Menu tap right after the page loads could come before it.
 */
export async function waitForHeader(page: Page): Promise<void> {
  await expect(page.locator('[data-site-header]')).toHaveAttribute('data-enhanced', 'true', { timeout: 20_000 })
}
