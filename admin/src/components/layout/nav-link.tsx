import { useRouter } from '@tanstack/react-router'
import type { ComponentProps, MouseEvent } from 'react'

/**
 * An `<a>` to a full admin URL held as data (e.g. '/admin/blog?edit=<id>' in the dashboard's activity list): a
 * plain click navigates client-side through the router's history, while modified clicks (new tab, new window) keep
 * the browser's behaviour. Typed routes use TanStack Router's `<Link>` instead.
 */
export function NavLink({ href, onClick, ...props }: ComponentProps<'a'> & { href: string }) {
  const router = useRouter()
  function handleClick(event: MouseEvent<HTMLAnchorElement>) {
    onClick?.(event)
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    ) {
      return
    }
    event.preventDefault()
    router.history.push(href)
  }
  return <a href={href} onClick={handleClick} {...props} />
}
