import { useSyncExternalStore } from 'react'

/** A post just published from this browser, waiting to appear on the public site. */
export type WatchedPost = {
  id: string
  slug: string
  title: string
  /** When the admin published it, ms since the epoch (browser clock). */
  publishedAt: number
}

let watched: readonly WatchedPost[] = []
const listeners = new Set<() => void>()

function emit(next: readonly WatchedPost[]) {
  watched = next
  for (const listener of listeners) listener()
}

/**
 * Starts watching a post the admin just published: the site-status notices poll its public URL and offer
 * "View live post" once it answers (after the rebuild that the publish fired). Watching it again restarts the watch.
 */
export function watchLivePost(post: Omit<WatchedPost, 'publishedAt'>): void {
  emit([...watched.filter((item) => item.id !== post.id), { ...post, publishedAt: Date.now() }])
}

/** Stops watching a post (its notice was dismissed or the watch gave up). */
export function unwatchLivePost(id: string): void {
  if (watched.some((item) => item.id === id)) emit(watched.filter((item) => item.id !== id))
}

/** The posts being watched, for React. */
export function useWatchedLivePosts(): readonly WatchedPost[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    () => watched,
  )
}
