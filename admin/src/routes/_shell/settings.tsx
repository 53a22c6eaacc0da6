import { createRoute } from '@tanstack/react-router'

import { SettingsPage } from '@/features/settings/components/settings-page'
import { Route as ShellRoute } from '../_shell'

export const Route = createRoute({
  getParentRoute: () => ShellRoute,
  path: 'settings',
  staticData: { title: 'Settings' },
  component: SettingsPage,
})
