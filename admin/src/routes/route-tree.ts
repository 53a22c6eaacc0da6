import { Route as RootRoute } from './__root'
import { Route as LoginRoute } from './login'
import { Route as ShellRoute } from './_shell'
import { Route as AgentsRoute } from './_shell/agents'
import { Route as AnalyticsRoute } from './_shell/analytics'
import { Route as AuditRoute } from './_shell/audit'
import { Route as BlogRoute } from './_shell/blog'
import { Route as BuildsRoute } from './_shell/builds'
import { Route as CalendarRoute } from './_shell/calendar'
import { Route as CrmRoute } from './_shell/crm'
import { Route as DashboardRoute } from './_shell/index'
import { Route as DatabaseRoute } from './_shell/database'
import { Route as ImportsRoute } from './_shell/imports'
import { Route as SettingsRoute } from './_shell/settings'
import { Route as UsersRoute } from './_shell/users'

/** Every admin URL (under the /admin basepath): the login page, and the guarded shell with its pages. */
export const routeTree = RootRoute.addChildren([
  LoginRoute,
  ShellRoute.addChildren([
    DashboardRoute,
    BlogRoute,
    CalendarRoute,
    CrmRoute,
    AgentsRoute,
    AnalyticsRoute,
    BuildsRoute,
    ImportsRoute,
    AuditRoute,
    UsersRoute,
    DatabaseRoute,
    SettingsRoute,
  ]),
])
