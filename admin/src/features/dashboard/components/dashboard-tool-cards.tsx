import { NavLink } from '@/components/layout/nav-link'

const TOOLS = [
  { href: '/admin/blog', title: 'Blog Management', description: 'Write, publish and schedule articles.' },
  { href: '/admin/calendar', title: 'Content Calendar', description: 'See what is published and planned, month by month.' },
  { href: '/admin/crm', title: 'Lead CRM', description: 'Work report requests from first contact to close.' },
  { href: '/admin/analytics', title: 'Analytics', description: 'Cookie-free traffic, top pages and sources.' },
  { href: '/admin/users', title: 'User Management', description: 'Administrators and their access.' },
  { href: '/admin/settings', title: 'Settings', description: 'Site and integration settings.' },
] as const

/** The six admin tools as link cards. */
export function DashboardToolCards() {
  return (
    // a section, not a second <nav>: the sidebar stays the only navigation landmark named "Admin"
    <section aria-labelledby="dashboard-tools-title">
      <h2 id="dashboard-tools-title" className="text-lg font-semibold">
        Tools
      </h2>
      <ul className="mt-3 grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {TOOLS.map((tool) => (
          <li key={tool.href}>
            <NavLink
              href={tool.href}
              className="block h-full rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition-colors hover:border-blue-300 hover:bg-blue-50/40 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
            >
              <span className="block font-semibold text-slate-900">{tool.title}</span>
              <span className="mt-1 block text-sm text-slate-500">{tool.description}</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </section>
  )
}
