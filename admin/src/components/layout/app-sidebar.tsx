import { Link } from '@tanstack/react-router'

import { cn } from '@/lib/utils'
import { AuthSignOutButton } from '@/features/auth/components/auth-sign-out-button'
import { NAV_ITEMS } from './nav-items'

type AppSidebarProps = {
  email: string
  /** Icons only, labels kept as accessible names and tooltips. */
  collapsed: boolean
  /** Called after an entry is chosen (the mobile drawer closes itself). */
  onNavigate?: () => void
}

export function NavIcon({ d }: { d: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="size-5 shrink-0"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={d} />
    </svg>
  )
}

/** The sidebar's contents: brand, navigation and the signed-in user; used by both the rail and the drawer. */
export function AppSidebar({ email, collapsed, onNavigate }: AppSidebarProps) {
  return (
    <div className="flex h-full flex-col">
      <div
        className={cn(
          'flex h-14 items-center border-b border-slate-200 font-semibold text-blue-700',
          collapsed ? 'justify-center' : 'px-4',
        )}
      >
        {collapsed ? <span aria-label="AgentInsight Admin">AI</span> : 'AgentInsight Admin'}
      </div>
      <nav aria-label="Admin" className="flex-1 overflow-y-auto p-2">
        <ul className="space-y-1">
          {NAV_ITEMS.map((item) => (
            <li key={item.to}>
              <Link
                to={item.to}
                // the Dashboard is /admin itself; every other entry also covers the paths below it
                activeOptions={{ exact: item.to === '/', includeSearch: false }}
                activeProps={{ 'aria-current': 'page', className: 'bg-blue-50 text-blue-700' }}
                inactiveProps={{ className: 'text-slate-700 hover:bg-slate-100' }}
                title={collapsed ? item.label : undefined}
                onClick={onNavigate}
                className={cn(
                  'flex h-9 items-center gap-3 rounded-md text-sm font-medium transition-colors',
                  collapsed ? 'justify-center' : 'px-3',
                )}
              >
                <NavIcon d={item.icon} />
                <span className={cn(collapsed && 'sr-only')}>{item.label}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className={cn('border-t border-slate-200 p-3 text-sm', collapsed && 'hidden')}>
        <p className="truncate font-medium text-slate-900" title={email}>
          {email}
        </p>
        <p className="mb-2 text-xs text-slate-500">Administrator</p>
        <AuthSignOutButton />
      </div>
    </div>
  )
}
