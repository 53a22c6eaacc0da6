import { useQuery } from '@tanstack/react-query'
import { useEffect } from 'react'

import { siteStatusKeys } from '../api/site-status-keys'
import { unwatchLivePost, useWatchedLivePosts, type WatchedPost } from '../api/live-post-watch'
import { postUrl } from '@shared/urls.ts'

/** How often a just-published post's URL is tried, and for how long before giving up (ms). */
const POLL_MS = 3_000
const GIVE_UP_AFTER_MS = 15 * 60 * 1000

/**
 * "View live post" notices for posts published from this browser: each appears once the post's public URL
 * answers 200 and no rebuild is pending (the site is static, so a post is live only after the rebuild its
 * publish fired). Works the same against the local builder and a production static host.
 */
export function SiteStatusLivePostNotices({ rebuilding }: { rebuilding: boolean }) {
  const posts = useWatchedLivePosts()
  if (posts.length === 0) return null
  return (
    <div aria-live="polite" className="pointer-events-none fixed top-16 right-4 z-[60] flex w-full max-w-sm flex-col gap-2">
      {posts.map((post) => (
        <LivePostNotice key={post.id} post={post} rebuilding={rebuilding} />
      ))}
    </div>
  )
}

function LivePostNotice({ post, rebuilding }: { post: WatchedPost; rebuilding: boolean }) {
  const path = postUrl(post.slug)
  const { data: answers } = useQuery({
    queryKey: siteStatusKeys.livePost(post.slug, post.publishedAt),
    queryFn: async ({ signal }) => {
      const response = await fetch(postUrl(post.slug), { method: 'HEAD', cache: 'no-store', signal })
      return response.ok
    },
    enabled: !rebuilding,
    refetchInterval: (query) => (query.state.data ? false : POLL_MS),
    retry: false,
  })

  useEffect(() => {
    const timer = window.setTimeout(() => unwatchLivePost(post.id), Math.max(0, post.publishedAt + GIVE_UP_AFTER_MS - Date.now()))
    return () => window.clearTimeout(timer)
  }, [post.id, post.publishedAt])

  if (!answers || rebuilding) return null
  return (
    <div className="pointer-events-auto flex items-start gap-3 rounded-lg border border-green-300 bg-white p-4 text-sm shadow-lg">
      <div className="flex-1">
        <p className="font-semibold">Post Published</p>
        <p className="mt-0.5 text-slate-600">“{post.title}” is live on the site.</p>
        <a
          href={path}
          target="_blank"
          rel="noopener noreferrer"
          className="mt-2 inline-block font-medium text-blue-700 hover:underline"
        >
          View live post
        </a>
      </div>
      <button
        type="button"
        aria-label={`Dismiss notice for ${post.title}`}
        className="text-slate-400 hover:text-slate-700"
        onClick={() => unwatchLivePost(post.id)}
      >
        ×
      </button>
    </div>
  )
}
