import { useSyncExternalStore } from 'react'

import type { BuildExpectation } from './site-status'

/** A post just published from this browser, waiting for the rebuild that puts it on the public site. */
export type WatchedPost = {
  id: string
  slug: string
  title: string
  /** The newest site_builds id when it was published: the build that carries it comes after this one. */
  afterBuildId: number
  /** When the admin published it, ms since the epoch (browser clock). */
  publishedAt: number
}

type State = { watched: readonly WatchedPost[]; expectation: BuildExpectation | null }

let state: State = { watched: [], expectation: null }
const listeners = new Set<() => void>()

function emit(next: State) {
  state = next
  for (const listener of listeners) listener()
}

/**
 * Records that this browser saved a change that asks for a site rebuild (publish, unpublish, edit of a live post,
 * Rebuild now), made when `afterId` was the newest build known; the pill says Rebuilding until that build is
 * recorded and done.
 */
export function expectSiteBuild(afterId: number): void {
  emit({ ...state, expectation: { afterId, at: Date.now() } })
}

/**
 * Starts watching a post the admin just published: the site-status notices offer "View live post" once a build
 * recorded after `afterBuildId` succeeded. Watching it again restarts the watch.
 */
export function watchLivePost(post: Omit<WatchedPost, 'publishedAt'>): void {
  emit({
    watched: [...state.watched.filter((item) => item.id !== post.id), { ...post, publishedAt: Date.now() }],
    expectation: { afterId: post.afterBuildId, at: Date.now() },
  })
}

/** Stops watching a post (its notice was dismissed or the watch gave up). */
export function unwatchLivePost(id: string): void {
  if (state.watched.some((item) => item.id === id))
    emit({ ...state, watched: state.watched.filter((item) => item.id !== id) })
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

/** The posts being watched, for React. */
export function useWatchedLivePosts(): readonly WatchedPost[] {
  return useSyncExternalStore(subscribe, () => state.watched)
}

/** The rebuild this browser is waiting for, if any. */
export function useBuildExpectation(): BuildExpectation | null {
  return useSyncExternalStore(subscribe, () => state.expectation)
}
