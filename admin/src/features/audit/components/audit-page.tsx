import { useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'

import { Alert } from '@/components/ui/alert'
import { Badge, type BadgeVariant } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { DATA_CARD_CLASS, DataCards, DataTable, EmptyState } from '@/components/ui/data-table'
import { Select } from '@/components/ui/textarea'
import { useIsMobile } from '@/hooks/use-media-query'
import { auditQueries } from '../api/audit-queries'
import {
  ACTION_LABELS,
  AUDIT_PAGE_SIZE,
  AUDITED_TABLES,
  AuditSearchSchema,
  fieldChanges,
  rowLabel,
  TABLE_LABELS,
  type AuditAction,
  type AuditEntry,
} from '../api/audit-schemas'

const route = getRouteApi('/_shell/audit')

const ACTION_VARIANTS: Record<AuditAction, BadgeVariant> = {
  insert: 'success',
  update: 'info',
  delete: 'danger',
  trash: 'warning',
  restore: 'accent',
}

const COLUMNS = [{ header: 'When', className: 'w-40' }, { header: 'Who' }, { header: 'What' }, { header: 'Changes' }]

const tableLabel = (table: string) => TABLE_LABELS[table as keyof typeof TABLE_LABELS] ?? table

function formatDateTime(value: string): string {
  return new Date(value).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'medium' })
}

/** The changed fields of one entry, before → after. */
function Changes({ entry }: { entry: AuditEntry }) {
  const changes = fieldChanges(entry)
  if (changes.length === 0) return <span className="text-slate-500">—</span>
  const showBefore = entry.action !== 'insert'
  const showAfter = entry.action !== 'delete'
  return (
    <dl className="space-y-1 text-xs">
      {changes.map((change) => (
        <div key={change.field} className="break-words">
          <dt className="inline font-mono text-slate-500">{change.field}: </dt>
          <dd className="inline text-slate-800">
            {showBefore && <span className="text-red-700 line-through decoration-red-300">{change.before}</span>}
            {showBefore && showAfter && ' → '}
            {showAfter && <span className="text-green-800">{change.after}</span>}
          </dd>
        </div>
      ))}
    </dl>
  )
}

function What({ entry }: { entry: AuditEntry }) {
  return (
    <div className="space-y-1">
      <Badge variant={ACTION_VARIANTS[entry.action]}>{ACTION_LABELS[entry.action]}</Badge>
      <p className="text-slate-900">
        {tableLabel(entry.table_name)}: <span className="font-medium">{rowLabel(entry)}</span>
      </p>
    </div>
  )
}

/**
 * /admin/audit: every write an administrator made (public.audit_log): when, who, what (table, row, action) and the
 * values before and after, newest first, 50 a page, filtered by table; the filter and the page live in the URL.
 */
export function AuditPage() {
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const isMobile = useIsMobile()
  const entries = useQuery(auditQueries.list(search))
  const page = entries.data?.slice(0, AUDIT_PAGE_SIZE)
  const hasOlder = (entries.data?.length ?? 0) > AUDIT_PAGE_SIZE
  const empty =
    page && page.length === 0 ? (
      <EmptyState
        title="No changes recorded"
        hint={search.table === 'all' ? 'Admin writes appear here as they happen.' : 'Pick another table.'}
      />
    ) : null

  return (
    <section className="space-y-4">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Audit Log</h1>
        <p className="mt-1 text-sm text-slate-500">Who changed what, and when: every write made in the admin.</p>
      </div>

      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <Select
          aria-label="Filter by table"
          value={search.table}
          onChange={(event) =>
            void navigate({
              search: (prev) => ({ ...prev, table: AuditSearchSchema.shape.table.parse(event.target.value), page: 1 }),
              replace: true,
            })
          }
          className="sm:w-52"
        >
          <option value="all">All tables</option>
          {AUDITED_TABLES.map((table) => (
            <option key={table} value={table}>
              {TABLE_LABELS[table]}
            </option>
          ))}
        </Select>
      </div>

      {entries.isError && <Alert>Could not load the audit log: {entries.error.message}</Alert>}

      {!isMobile && (
        <DataTable columns={COLUMNS} loading={entries.isPending} empty={empty}>
          {page?.map((entry) => (
            <tr key={entry.id} className="border-b border-slate-100 align-top last:border-0">
              <td className="px-4 py-3 whitespace-nowrap text-slate-600">{formatDateTime(entry.at)}</td>
              <td className="px-4 py-3 text-slate-600">{entry.actor_email ?? 'Database'}</td>
              <td className="px-4 py-3">
                <What entry={entry} />
              </td>
              <td className="max-w-md px-4 py-3">
                <Changes entry={entry} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {isMobile && (
        <DataCards label="Audit log" loading={entries.isPending} empty={empty}>
          {page?.map((entry) => (
            <li key={entry.id} className={DATA_CARD_CLASS}>
              <What entry={entry} />
              <p className="mt-1 text-xs text-slate-500">
                {formatDateTime(entry.at)} · {entry.actor_email ?? 'Database'}
              </p>
              <div className="mt-2 border-t border-slate-100 pt-2">
                <Changes entry={entry} />
              </div>
            </li>
          ))}
        </DataCards>
      )}

      {(search.page > 1 || hasOlder) && (
        <nav aria-label="Audit log pages" className="flex items-center justify-between">
          <Button
            variant="outline"
            disabled={search.page <= 1}
            onClick={() => void navigate({ search: (prev) => ({ ...prev, page: search.page - 1 }) })}
          >
            Newer
          </Button>
          <span className="text-sm text-slate-500">Page {search.page}</span>
          <Button
            variant="outline"
            disabled={!hasOlder}
            onClick={() => void navigate({ search: (prev) => ({ ...prev, page: search.page + 1 }) })}
          >
            Older
          </Button>
        </nav>
      )}
    </section>
  )
}
