import type { ReactNode } from 'react'
import { useCallback, useEffect, useState } from 'react'

import { Sheet } from '@/components/ui/sheet'
import { SiteStatusIndicator } from '@/features/site-status/components/site-status-indicator'
import { useIsMobile } from '@/hooks/use-media-query'
import { cn } from '@/lib/utils'
import { AppSidebar, NavIcon } from './app-sidebar'
import { PageBreadcrumbs, usePageCrumbs } from './page-breadcrumbs'
import { readSidebarExpanded, writeSidebarExpanded } from './sidebar-state'
import { siteLink } from '@/lib/site-link'

const MENU_ICON = 'M4 6h16M4 12h16M4 18h16'

type AdminShellProps = {
  email: string
  children: ReactNode
}

/**
 * The frame of every signed-in admin screen: sidebar, a top bar (Admin Dashboard and what it is for, the site status
 * pill, View Site) and the breadcrumbs to the current page above its content. On wide screens the sidebar is a rail, 16rem expanded or 3rem
 * collapsed (remembered in the `sidebar_state` cookie); under 768px it is a drawer (Radix Dialog). Ctrl+B or
 * Cmd+B toggles whichever applies.
 */
export function AdminShell({ email, children }: AdminShellProps) {
  const crumbs = usePageCrumbs()
  const isMobile = useIsMobile()
  const [expanded, setExpanded] = useState(readSidebarExpanded)
  const [drawerOpen, setDrawerOpen] = useState(false)

  const toggle = useCallback(() => {
    if (isMobile) {
      setDrawerOpen((open) => !open)
      return
    }
    setExpanded((current) => {
      writeSidebarExpanded(!current)
      return !current
    })
  }, [isMobile])

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key.toLowerCase() === 'b' && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey) {
        event.preventDefault()
        toggle()
      }
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [toggle])

  return (
    <div className="flex min-h-screen">
      {!isMobile && (
        <aside
          aria-label="Sidebar"
          data-state={expanded ? 'expanded' : 'collapsed'}
          className={cn(
            'sticky top-0 h-screen shrink-0 border-r border-slate-200 bg-white transition-[width] duration-200',
            expanded ? 'w-64' : 'w-12',
          )}
        >
          <AppSidebar email={email} collapsed={!expanded} />
        </aside>
      )}
      {isMobile && (
        <Sheet open={drawerOpen} onOpenChange={setDrawerOpen} side="left" title="Navigation" hideTitle className="w-72">
          <AppSidebar email={email} collapsed={false} onNavigate={() => setDrawerOpen(false)} />
        </Sheet>
      )}

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b border-slate-200 bg-white px-3 sm:gap-3 sm:px-4">
          <button
            type="button"
            onClick={toggle}
            aria-label={isMobile ? 'Open menu' : 'Toggle sidebar'}
            aria-expanded={isMobile ? drawerOpen : expanded}
            title="Toggle sidebar (Ctrl+B)"
            className="rounded-md p-1.5 text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700"
          >
            <NavIcon d={MENU_ICON} />
          </button>
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm leading-tight font-semibold sm:text-base">Admin Dashboard</p>
            <p className="truncate text-xs text-slate-600">Manage your AgentInsight platform</p>
          </div>
          <SiteStatusIndicator />
          <a
            href={siteLink('/')}
            target="_blank"
            rel="noopener noreferrer"
            className="shrink-0 rounded-md border border-slate-300 px-2 py-1.5 text-sm font-medium hover:bg-slate-100 sm:px-3"
          >
            View Site
          </a>
        </header>
        <main className="flex-1 p-4 md:p-6">
          <PageBreadcrumbs crumbs={crumbs} />
          {children}
        </main>
      </div>
    </div>
  )
}
