import { AuthSignOutButton } from '../../auth/components/auth-sign-out-button'

/** Placeholder landing screen of the admin app; the real dashboard is built in a later issue. */
export function DashboardOverview({ email }: { email: string }) {
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
          <span className="font-semibold text-blue-700">AgentInsight Admin</span>
          <AuthSignOutButton />
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-10">
        <h1 className="text-3xl font-bold tracking-tight">Admin Dashboard</h1>
        <p className="mt-2 text-slate-600">
          Signed in as <strong className="text-slate-800">{email}</strong>.
        </p>
      </main>
    </div>
  )
}
