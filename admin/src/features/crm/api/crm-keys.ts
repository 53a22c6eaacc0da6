/** Query keys of leads (report_requests); invalidate through these, never through hand-typed arrays. */
export const leadKeys = {
  all: ['leads'] as const,
  lists: () => [...leadKeys.all, 'list'] as const,
  /** Every lead, newest first; the CRM filters, counts and exports on the client. */
  list: () => [...leadKeys.lists(), 'all'] as const,
  /** The notes history of one lead. */
  notes: (leadId: string) => [...leadKeys.all, 'notes', leadId] as const,
}

/** Query keys of the administrators (owners of leads). */
export const adminKeys = {
  all: ['admins'] as const,
  list: () => [...adminKeys.all, 'list'] as const,
}
