import type { LeadCounters as Counters } from '../api/crm-schemas'

function Counter({ label, value, hint }: { label: string; value: number | undefined; hint: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <p className="text-sm font-medium text-slate-500">{label}</p>
      <p className="mt-1 text-2xl font-bold tabular-nums" aria-label={`${label}: ${value ?? 'loading'}`}>
        {value ?? '–'}
      </p>
      <p className="mt-1 text-xs text-slate-500">{hint}</p>
    </div>
  )
}

/** Total, pending, contacted (incl. qualified) and closed leads; dashes while loading. */
export function LeadCounters({ counters }: { counters: Counters | undefined }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" role="group" aria-label="Lead counters">
      <Counter label="Total Leads" value={counters?.total} hint="All report requests" />
      <Counter label="New / Pending" value={counters?.pending} hint="Waiting for first contact" />
      <Counter
        label="Contacted"
        value={counters?.contacted}
        hint={counters ? `Contacted or qualified (${counters.qualified} qualified)` : 'Contacted or qualified'}
      />
      <Counter label="Converted / Closed" value={counters?.closed} hint="Status closed" />
    </div>
  )
}
