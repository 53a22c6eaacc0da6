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

/** The spec's four counters over every lead: Total Requests, Pending, Contacted, Qualified; dashes while loading. */
export function LeadCounters({ counters }: { counters: Counters | undefined }) {
  return (
    <div className="grid grid-cols-2 gap-4 lg:grid-cols-4" role="group" aria-label="Lead counters">
      <Counter
        label="Total Requests"
        value={counters?.total}
        hint={counters ? `${counters.closed} closed` : 'All report requests'}
      />
      <Counter label="Pending" value={counters?.pending} hint="Waiting for first contact" />
      <Counter label="Contacted" value={counters?.contacted} hint="In conversation" />
      <Counter label="Qualified" value={counters?.qualified} hint="Ready to be matched" />
    </div>
  )
}
