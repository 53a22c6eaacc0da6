/**
 * Behaviour of the framework-free Share button (components/ShareButton.astro): each `button[data-share-url]` shares
 * its `data-share-title` and `data-share-url` with the Web Share API where the browser has it, otherwise copies the
 * URL to the clipboard, and shows the outcome in the `[data-share-toast]` live region that follows the button.
 */

import { buttonReady } from '~/lib/early-click'

/** How long a toast stays, in milliseconds. */
export const TOAST_MS = 4000

const toastClasses = {
  success: 'max-w-sm rounded-control bg-green-800 px-4 py-3 text-sm text-white shadow-lg',
  error: 'max-w-sm rounded-control bg-red-800 px-4 py-3 text-sm text-white shadow-lg',
} as const

export type ShareOutcome = 'shared' | 'copied' | 'cancelled' | 'failed'

/**
 * Shares `{ title, url }`: the system share sheet when `navigator.share` exists, else the clipboard.
 * @returns 'cancelled' when the user closed the share sheet (not an error); 'failed' when neither worked (logged).
 */
export async function shareLink(title: string, url: string): Promise<ShareOutcome> {
  try {
    if (typeof navigator.share === 'function') {
      await navigator.share({ title, url })
      return 'shared'
    }
    await navigator.clipboard.writeText(url)
    return 'copied'
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return 'cancelled'
    console.error('Sharing failed', error)
    return 'failed'
  }
}

/** Toasts of the Share action. */
export const SHARE_COPIED = {
  title: 'Link copied!',
  description: 'The article link has been copied to your clipboard.',
}
export const SHARE_FAILED = {
  title: 'Share failed',
  description: 'Unable to share or copy link. Please copy the URL manually.',
}

/** Wires every Share button under `root` (once per button). */
export function enhanceShareButtons(root: ParentNode): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>('button[data-share-url]')) {
    if (button.dataset.shareReady) continue
    button.dataset.shareReady = 'true'
    const region =
      button.nextElementSibling instanceof HTMLElement && button.nextElementSibling.matches('[data-share-toast]')
        ? button.nextElementSibling
        : null
    let timer: number | undefined
    const showToast = (message: { title: string; description: string }, tone: keyof typeof toastClasses) => {
      if (!region) return
      const toast = document.createElement('div')
      toast.className = toastClasses[tone]
      const title = document.createElement('p')
      title.className = 'font-semibold'
      title.textContent = message.title
      const description = document.createElement('p')
      description.textContent = message.description
      toast.append(title, description)
      region.replaceChildren(toast)
      window.clearTimeout(timer)
      timer = window.setTimeout(() => region.replaceChildren(), TOAST_MS)
    }
    button.addEventListener('click', async () => {
      const outcome = await shareLink(button.dataset.shareTitle ?? document.title, button.dataset.shareUrl!)
      if (outcome === 'copied') showToast(SHARE_COPIED, 'success')
      else if (outcome === 'failed') showToast(SHARE_FAILED, 'error')
    })
    buttonReady(button)
  }
}
