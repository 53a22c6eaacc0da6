import type { AuditFilters, TrashKind } from './audit-schemas'

/** Query keys of the audit log and the trash; invalidate through these, never through hand-typed arrays. */
export const auditKeys = {
  all: ['audit'] as const,
  lists: () => [...auditKeys.all, 'list'] as const,
  list: (filters: AuditFilters) => [...auditKeys.lists(), filters] as const,
}

export const trashKeys = {
  all: ['trash'] as const,
  list: (kind: TrashKind) => [...trashKeys.all, kind] as const,
}
