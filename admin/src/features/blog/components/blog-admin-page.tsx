import { getRouteApi } from '@tanstack/react-router'
import type { ReactNode } from 'react'

import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { CalendarMonthWithState } from '@/features/calendar/components/calendar-month'
import { ContentGenerationTab } from '@/features/content/components/content-generation-tab'
import { ContentTopicsTab } from '@/features/content/components/content-topics-tab'
import { BLOG_TABS } from '../api/blog-schemas'
import { BlogPostEditor } from './blog-post-editor'
import { BlogPostList } from './blog-post-list'

const route = getRouteApi('/_shell/blog')

/** The page's tabs in order, one per `?tab=` value. */
const TABS = [
  { value: 'posts', label: 'Blog Posts', Panel: BlogPostList },
  { value: 'topics', label: 'Trending Topics', Panel: ContentTopicsTab },
  { value: 'generation', label: 'Content Generation', Panel: ContentGenerationTab },
  { value: 'calendar', label: 'Content Calendar', Panel: CalendarMonthWithState },
] as const satisfies readonly { value: (typeof BLOG_TABS)[number]; label: string; Panel: () => ReactNode }[]

/**
 * /admin/blog: the post list and its sibling tools (`?tab=`), or the editor when the URL says `?edit=<id>` /
 * `?new=1`. The list's search and filter stay in the URL while editing, so leaving the editor returns to them.
 */
export function BlogAdminPage() {
  const search = route.useSearch()
  const navigate = route.useNavigate()

  if (search.edit) return <BlogPostEditor key={search.edit} postId={search.edit} />
  if (search.new) return <BlogPostEditor key="new" />

  return (
    <section>
      <h1 className="text-2xl font-bold tracking-tight">Blog Administration</h1>
      <p className="mt-1 text-sm text-slate-500">Write, publish and schedule articles for the public blog.</p>
      <Tabs
        value={search.tab}
        onValueChange={(value) => {
          const tab = BLOG_TABS.find((item) => item === value) ?? 'posts'
          void navigate({ search: (prev) => ({ ...prev, tab: tab === 'posts' ? undefined : tab }), replace: true })
        }}
        className="mt-6"
      >
        <TabsList>
          {TABS.map((tab) => (
            <TabsTrigger key={tab.value} value={tab.value}>
              {tab.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {TABS.map(({ value, Panel }) => (
          <TabsContent key={value} value={value}>
            <Panel />
          </TabsContent>
        ))}
      </Tabs>
    </section>
  )
}
