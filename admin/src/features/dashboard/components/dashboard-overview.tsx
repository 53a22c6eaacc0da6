/** Placeholder landing screen of the admin app; the real dashboard is built in a later issue. */
export function DashboardOverview() {
  return (
    <section>
      <h1 className="text-2xl font-bold tracking-tight">Dashboard</h1>
      <p className="mt-2 text-slate-600">Welcome back. Pick a section from the sidebar to get started.</p>
    </section>
  )
}
