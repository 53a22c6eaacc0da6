/**
 * The admin's sections, in sidebar order: the one list the sidebar, the page titles (top bar, breadcrumbs) and the
 * dashboard's tool cards are drawn from.
 * `to` is the router path under the /admin basepath; an entry is highlighted on its own path and below it (the
 * Dashboard only on /admin itself). `tool` is the entry's dashboard card: Blog Management, Calendar, Analytics, Users,
 * Database and Settings have one.
 */
export const NAV_ITEMS = [
  { to: '/', label: 'Dashboard', icon: 'M3 12l9-9 9 9M5 10v10h5v-6h4v6h5V10' },
  {
    to: '/blog',
    label: 'Blog Management',
    icon: 'M4 4h16v16H4zM8 8h8M8 12h8M8 16h5',
    tool: { title: 'Blog Management', description: 'Write, publish and schedule articles.' },
  },
  {
    to: '/calendar',
    label: 'Calendar',
    icon: 'M4 6h16v14H4zM4 10h16M8 3v4M16 3v4',
    tool: { title: 'Content Calendar', description: 'See what is published and planned, month by month.' },
  },
  {
    to: '/crm',
    label: 'CRM',
    icon: 'M16 19v-1a4 4 0 00-8 0v1M12 11a3 3 0 100-6 3 3 0 000 6',
  },
  {
    to: '/agents',
    label: 'Agents',
    icon: 'M12 3l7 3v5c0 4.5-3 8.5-7 10-4-1.5-7-5.5-7-10V6l7-3zM9 12l2 2 4-4',
  },
  {
    to: '/analytics',
    label: 'Analytics',
    icon: 'M4 20V10M10 20V4M16 20v-7M22 20H2',
    tool: { title: 'Analytics', description: 'Cookie-free traffic, top pages and sources.' },
  },
  { to: '/builds', label: 'Builds', icon: 'M4 7l8-4 8 4-8 4-8-4zM4 12l8 4 8-4M4 17l8 4 8-4' },
  { to: '/imports', label: 'Imports', icon: 'M12 3v12M7 10l5 5 5-5M5 21h14' },
  { to: '/audit', label: 'Audit Log', icon: 'M9 5h10M9 12h10M9 19h10M4 5h.01M4 12h.01M4 19h.01' },
  {
    to: '/users',
    label: 'Users',
    icon: 'M17 20v-1a4 4 0 00-4-4H7a4 4 0 00-4 4v1M10 11a4 4 0 100-8 4 4 0 000 8M21 20v-1a4 4 0 00-3-3.9',
    tool: { title: 'User Management', description: 'Administrators and their access.' },
  },
  {
    to: '/database',
    label: 'Database',
    icon: 'M4 6c0-1.7 3.6-3 8-3s8 1.3 8 3-3.6 3-8 3-8-1.3-8-3zM4 6v12c0 1.7 3.6 3 8 3s8-1.3 8-3V6M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3',
    tool: { title: 'Database', description: 'Browse tables and data imports (coming soon).' },
  },
  {
    to: '/settings',
    label: 'Settings',
    icon: 'M12 15a3 3 0 100-6 3 3 0 000 6M4 12h2M18 12h2M12 4v2M12 18v2',
    tool: { title: 'Settings', description: 'Your account security: two-factor sign-in with an authenticator app.' },
  },
] as const satisfies readonly NavItem[]

type NavItem = {
  to: string
  label: string
  /** SVG path data of the 24×24 outline icon. */
  icon: string
  tool?: { title: string; description: string }
}

export type NavTo = (typeof NAV_ITEMS)[number]['to']

/**
 * The title of the section at router path `path` ('/crm' → 'CRM'): its sidebar label, which the top bar and the
 * breadcrumbs show too. Undefined for a path that is no section (the login page, an unknown address).
 */
export function sectionTitle(path: string): string | undefined {
  return NAV_ITEMS.find((item) => item.to === path)?.label
}
