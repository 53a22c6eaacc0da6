import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { useSearchParams } from '@/hooks/use-search-params'
import { CalendarMonth } from '@/features/calendar/components/calendar-month'
import { ContentGenerationTab } from '@/features/content/components/content-generation-tab'
import { ContentTopicsTab } from '@/features/content/components/content-topics-tab'
import { BlogSearchParamsSchema } from '../api/blog-schemas'
import { BlogPostEditor } from './blog-post-editor'
import { BlogPostList } from './blog-post-list'

/** /admin/blog: the post list and its sibling tools, or the editor when the URL says `?edit=<id>` / `?new=1`. */
export function BlogAdminPage() {
  const params = BlogSearchParamsSchema.parse(Object.fromEntries(useSearchParams()))

  if (params.edit) return <BlogPostEditor key={params.edit} postId={params.edit} />
  if (params.new) return <BlogPostEditor key="new" />

  return (
    <section>
      <h1 className="text-2xl font-bold tracking-tight">Blog Administration</h1>
      <p className="mt-1 text-sm text-slate-500">Write, publish and schedule articles for the public blog.</p>
      <Tabs defaultValue="posts" className="mt-6">
        <TabsList>
          <TabsTrigger value="posts">Blog Posts</TabsTrigger>
          <TabsTrigger value="topics">Trending Topics</TabsTrigger>
          <TabsTrigger value="generation">Content Generation</TabsTrigger>
          <TabsTrigger value="calendar">Content Calendar</TabsTrigger>
        </TabsList>
        <TabsContent value="posts">
          <BlogPostList />
        </TabsContent>
        <TabsContent value="topics">
          <ContentTopicsTab />
        </TabsContent>
        <TabsContent value="generation">
          <ContentGenerationTab />
        </TabsContent>
        <TabsContent value="calendar">
          <CalendarMonth />
        </TabsContent>
      </Tabs>
    </section>
  )
}
