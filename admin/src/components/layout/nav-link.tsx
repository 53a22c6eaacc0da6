import type { ComponentProps, MouseEvent } from 'react'

import { navigate } from '@/lib/navigation'

/**
 * An `<a>` to a path inside the admin SPA: a plain click navigates client-side, while modified clicks
 * (new tab, new window) keep the browser's behaviour.
 */
export function NavLink({ href, onClick, ...props }: ComponentProps<'a'> & { href: string }) {
  function handleClick(event: MouseEvent<HTMLAnchorElement>) {
    onClick?.(event)
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return
    }
    event.preventDefault()
    navigate(href)
  }
  return <a href={href} onClick={handleClick} {...props} />
}
