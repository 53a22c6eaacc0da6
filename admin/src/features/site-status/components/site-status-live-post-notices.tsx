import { useEffect } from 'react'

import { unwatchLivePost, useWatchedLivePosts, type WatchedPost } from '../api/live-post-watch'
import { isLiveAfter, type SiteBuildRow, type SiteStatus } from '../api/site-status'
import { postUrl } from '@shared/urls.ts'
import { siteLink } from '@/lib/site-link'

/** How long a notice waits for its build before giving up (ms). */
const GIVE_UP_AFTER_MS = 15 * 60 * 1000

/**
 * "View live post" notices for posts published from this browser: each appears once a site build recorded after
 * the publish succeeded and nothing is pending (the site is static, so a post is live only after that rebuild).
 * Decided from site_builds alone: the public URL is never polled.
 */
export function SiteStatusLivePostNotices({
  rows,
  status,
}: {
  rows: readonly SiteBuildRow[]
  status: SiteStatus | undefined
}) {
  const posts = useWatchedLivePosts()
  if (posts.length === 0) return null
  return (
    <div
      aria-live="polite"
      className="pointer-events-none fixed top-16 right-4 z-[60] flex w-full max-w-sm flex-col gap-2"
    >
      {posts.map((post) => (
        <LivePostNotice
          key={post.id}
          post={post}
          live={status !== undefined && isLiveAfter(rows, post.afterBuildId, status)}
        />
      ))}
    </div>
  )
}

function LivePostNotice({ post, live }: { post: WatchedPost; live: boolean }) {
  useEffect(() => {
    const timer = window.setTimeout(
      () => unwatchLivePost(post.id),
      Math.max(0, post.publishedAt + GIVE_UP_AFTER_MS - Date.now()),
    )
    return () => window.clearTimeout(timer)
  }, [post.id, post.publishedAt])

  if (!live) return null
  return (
    <div className="pointer-events-auto flex items-start gap-3 rounded-lg border border-green-300 bg-white p-4 text-sm shadow-lg">
      <div className="flex-1">
        <p className="font-semibold">Post Published</p>
        <p className="mt-0.5 text-slate-600">“{post.title}” is live on the site.</p>
        <a
          href={siteLink(postUrl(post.slug))}
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
        className="text-slate-500 hover:text-slate-700"
        onClick={() => unwatchLivePost(post.id)}
      >
        ×
      </button>
    </div>
  )
}
