import { Link } from '@tanstack/react-router'

import { NAV_ITEMS } from '@/components/layout/nav-items'

// the sections that have a dashboard card, in sidebar order
const TOOLS = NAV_ITEMS.flatMap((item) => ('tool' in item ? [{ to: item.to, ...item.tool }] : []))

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
          <li key={tool.to}>
            <Link
              to={tool.to}
              className="block h-full rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition-colors hover:border-blue-300 hover:bg-blue-50/40 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
            >
              <span className="block font-semibold text-slate-900">{tool.title}</span>
              <span className="mt-1 block text-sm text-slate-500">{tool.description}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}
