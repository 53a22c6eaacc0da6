import { useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { format } from 'date-fns'
import { useState, type ReactNode } from 'react'

import { Alert } from '@/components/ui/alert'
import { Badge, type BadgeVariant } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { DATA_CARD_CLASS, DataCards, DataTable, EmptyState } from '@/components/ui/data-table'
import { Input } from '@/components/ui/input'
import { Select } from '@/components/ui/textarea'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { useIsMobile } from '@/hooks/use-media-query'
import { siteLink } from '@/lib/site-link'
import { ACTION_LABELS, fieldChanges, type AuditEntry } from '@/features/audit/api/audit-schemas'
import { agentReviewQueries } from '../api/agents-queries'
import {
  AGENT_REVIEW_TABS,
  AgentReviewSearchSchema,
  DECISION_LABELS,
  decisionsFor,
  kindLabel,
  matchesQuery,
  STATUS_FILTER_LABELS,
  STATUS_FILTERS,
  statusLabel,
  TAB_LABELS,
  TRAIL_TABLE_LABELS,
  visibilityWords,
  type Decision,
  type QueueTab,
  type ReviewItem,
} from '../api/agents-schemas'
import { DecisionDialog } from './decision-dialog'

const route = getRouteApi('/_shell/agents')

const STATUS_VARIANTS: Record<string, BadgeVariant> = {
  code_sent: 'info',
  review_requested: 'warning',
  pending: 'warning',
  approved: 'success',
  accepted: 'success',
  rejected: 'danger',
  revoked: 'danger',
  withdrawn: 'default',
}

const usd = (value: number | null) =>
  value === null ? '—' : value.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 })
const dateTime = (value: string) => format(new Date(value), 'MMM d, yyyy h:mm a')
const day = (value: string | null) => (value ? format(new Date(`${value}T00:00:00`), 'MMM d, yyyy') : '—')

/** The agent an item is about: name (a link to the public profile) and brokerage. */
function AgentCell({ item }: { item: ReviewItem }) {
  if (!item.agent) return <span className="text-slate-500">Agent removed</span>
  return (
    <div>
      <a href={siteLink(`/agent/${item.agent.id}`)} className="font-medium text-blue-700 underline">
        {item.agent.name}
      </a>
      {item.agent.brokerage && <p className="text-xs text-slate-500">{item.agent.brokerage}</p>}
    </div>
  )
}

/** What the item asks for, with what the reviewer needs to check it. */
function Details({ item }: { item: ReviewItem }) {
  const lines: ReactNode[] = []
  if (item.subject === 'claim') {
    const licenseMatches =
      item.license_number && item.agent?.license_number
        ? item.license_number.replace(/[^a-z0-9]/gi, '').toUpperCase() ===
          item.agent.license_number.replace(/[^a-z0-9]/gi, '').toUpperCase()
        : null
    lines.push(
      <span key="how">
        {item.status === 'review_requested' || item.method === 'admin'
          ? 'Review by hand'
          : item.method === 'email_code'
            ? 'Proved with the mailed code'
            : `Code sent to ${item.code_sent_to ?? 'the MLS email'}`}
      </span>,
      <span key="license">
        License given: {item.license_number ?? '—'} · MLS record: {item.agent?.license_number ?? '—'}
        {licenseMatches !== null && (licenseMatches ? ' (matches)' : ' (does not match)')}
      </span>,
      <span key="mls-email">MLS email: {item.agent?.email ?? '—'}</span>,
    )
    if (item.message) lines.push(<span key="message">Message: {item.message}</span>)
  } else if (item.subject === 'correction') {
    lines.push(
      <span key="kind" className="font-medium">
        {kindLabel(item.kind)}
      </span>,
      <span key="sale">
        {[item.address, item.listing_number ? `MLS ${item.listing_number}` : null].filter(Boolean).join(', ') ||
          'Sale not named'}
        {item.kind === 'missing_sale' && !item.property_id && ' (not in our data yet)'}
      </span>,
    )
    if (item.kind === 'wrong_side' || item.kind === 'missing_sale')
      lines.push(
        <span key="side">
          Side they had: {item.side ?? '—'}
          {item.recorded_role ? ` · our data: ${item.recorded_role.replace('_', '-')}` : ''}
        </span>,
      )
    if (item.kind === 'not_my_sale' && item.recorded_role)
      lines.push(<span key="role">Credited in our data as: {item.recorded_role.replace('_', '-')}</span>)
    if (item.kind === 'wrong_price_date')
      lines.push(
        <span key="price">
          Close price {usd(item.recorded_close_price)} →{' '}
          {item.close_price === null ? 'unchanged' : usd(item.close_price)}
          {' · '}close date {day(item.recorded_close_date)} → {item.close_date ? day(item.close_date) : 'unchanged'}
          {item.list_price !== null && ` · list price ${usd(item.recorded_list_price)} → ${usd(item.list_price)}`}
        </span>,
      )
    if (item.explanation) lines.push(<span key="why">Explanation: {item.explanation}</span>)
  } else {
    lines.push(<span key="what">{visibilityWords(item)}</span>)
    if (item.note) lines.push(<span key="note">Note: {item.note}</span>)
  }
  if (item.decision_reason) lines.push(<span key="reason">Reason: {item.decision_reason}</span>)
  return <div className="flex flex-col gap-0.5 text-xs break-words text-slate-700">{lines}</div>
}

function Actions({ item, onDecide }: { item: ReviewItem; onDecide: (decision: Decision) => void }) {
  const decisions = decisionsFor(item)
  if (decisions.length === 0) return null
  const who = item.agent?.name ?? 'this agent'
  return (
    <div className="flex flex-wrap gap-2">
      {decisions.map((decision) => (
        <Button
          key={decision}
          size="sm"
          variant={decision === 'reject' || decision === 'revoke' ? 'outline' : 'default'}
          aria-label={`${DECISION_LABELS[decision]} ${item.subject === 'visibility' ? 'visibility request' : item.subject} of ${who}`}
          onClick={() => onDecide(decision)}
        >
          {DECISION_LABELS[decision]}
        </Button>
      ))}
    </div>
  )
}

function StatusCell({ item }: { item: ReviewItem }) {
  return (
    <div className="space-y-1">
      <Badge variant={STATUS_VARIANTS[item.status] ?? 'default'}>{statusLabel(item)}</Badge>
      {item.decided_at && <p className="text-xs text-slate-500">{dateTime(item.decided_at)}</p>}
    </div>
  )
}

const QUEUE_COLUMNS = [
  { header: 'Filed', className: 'w-36' },
  { header: 'Agent' },
  { header: 'By' },
  { header: 'Details' },
  { header: 'Status' },
  { header: 'Decide', className: 'w-44' },
]

function Queue({ tab, status, query }: { tab: QueueTab; status: (typeof STATUS_FILTERS)[number]; query: string }) {
  const isMobile = useIsMobile()
  const items = useQuery(agentReviewQueries.list({ tab, status }))
  const [deciding, setDeciding] = useState<{ item: ReviewItem; decision: Decision } | null>(null)
  const shown = items.data?.filter((item) => matchesQuery(item, query))
  const empty =
    shown && shown.length === 0 ? (
      <EmptyState
        title={status === 'open' ? 'Nothing to review' : 'Nothing here'}
        hint={
          query
            ? 'No agent name or email matches the search.'
            : status === 'open'
              ? 'New claims and requests appear here as agents send them.'
              : 'Pick another filter.'
        }
      />
    ) : null
  const loadingText = `Loading ${TAB_LABELS[tab].toLowerCase()}…`

  return (
    <>
      {items.isError && (
        <Alert>
          Could not load the {TAB_LABELS[tab].toLowerCase()}: {items.error.message}
        </Alert>
      )}
      {!isMobile && (
        <DataTable columns={QUEUE_COLUMNS} loading={items.isPending} empty={empty} loadingText={loadingText}>
          {shown?.map((item) => (
            <tr key={item.id} className="border-b border-slate-100 align-top last:border-0">
              <td className="px-4 py-3 whitespace-nowrap text-slate-600">{dateTime(item.created_at)}</td>
              <td className="px-4 py-3">
                <AgentCell item={item} />
              </td>
              <td className="min-w-48 px-4 py-3 text-xs [overflow-wrap:anywhere] text-slate-700">
                {item.email ?? 'Deleted account'}
              </td>
              <td className="max-w-sm px-4 py-3">
                <Details item={item} />
              </td>
              <td className="px-4 py-3">
                <StatusCell item={item} />
              </td>
              <td className="px-4 py-3">
                <Actions item={item} onDecide={(decision) => setDeciding({ item, decision })} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {isMobile && (
        <DataCards label={TAB_LABELS[tab]} loading={items.isPending} empty={empty} loadingText={loadingText}>
          {shown?.map((item) => (
            <li key={item.id} className={DATA_CARD_CLASS}>
              <div className="flex items-start justify-between gap-2">
                <AgentCell item={item} />
                <StatusCell item={item} />
              </div>
              <p className="mt-1 text-xs break-all text-slate-500">
                {dateTime(item.created_at)} · {item.email ?? 'Deleted account'}
              </p>
              <div className="mt-2 border-t border-slate-100 pt-2">
                <Details item={item} />
              </div>
              <div className="mt-3">
                <Actions item={item} onDecide={(decision) => setDeciding({ item, decision })} />
              </div>
            </li>
          ))}
        </DataCards>
      )}
      {deciding && (
        <DecisionDialog item={deciding.item} decision={deciding.decision} onClose={() => setDeciding(null)} />
      )}
    </>
  )
}

const TRAIL_COLUMNS = [
  { header: 'When', className: 'w-44' },
  { header: 'Who' },
  { header: 'What' },
  { header: 'Changes' },
]

function TrailChanges({ entry }: { entry: AuditEntry }) {
  const changes = fieldChanges(entry).filter((change) =>
    ['status', 'method', 'decision_reason', 'kind', 'hide_phone', 'hide_email', 'noindex', 'listing_number'].includes(
      change.field,
    ),
  )
  if (changes.length === 0) return <span className="text-slate-500">—</span>
  return (
    <dl className="space-y-0.5 text-xs">
      {changes.map((change) => (
        <div key={change.field} className="break-words">
          <dt className="inline font-mono text-slate-500">{change.field}: </dt>
          <dd className="inline text-slate-800">
            {entry.action !== 'insert' && <span className="text-red-700 line-through">{change.before}</span>}
            {entry.action !== 'insert' && ' → '}
            <span className="text-green-800">{change.after}</span>
          </dd>
        </div>
      ))}
    </dl>
  )
}

function trailWhat(entry: AuditEntry): string {
  const table = TRAIL_TABLE_LABELS[entry.table_name as keyof typeof TRAIL_TABLE_LABELS] ?? entry.table_name
  return `${table} ${ACTION_LABELS[entry.action].toLowerCase()}`
}

/** Who filed and who decided what, when: the audit log of the three tables. */
function Trail() {
  const isMobile = useIsMobile()
  const entries = useQuery(agentReviewQueries.trail())
  const empty =
    entries.data && entries.data.length === 0 ? (
      <EmptyState title="No decisions yet" hint="Claims, corrections and requests and their decisions appear here." />
    ) : null
  return (
    <>
      {entries.isError && <Alert>Could not load the audit trail: {entries.error.message}</Alert>}
      {!isMobile && (
        <DataTable
          columns={TRAIL_COLUMNS}
          loading={entries.isPending}
          empty={empty}
          loadingText="Loading the audit trail…"
        >
          {entries.data?.map((entry) => (
            <tr key={entry.id} className="border-b border-slate-100 align-top last:border-0">
              <td className="px-4 py-3 whitespace-nowrap text-slate-600">{dateTime(entry.at)}</td>
              <td className="px-4 py-3 text-xs [overflow-wrap:anywhere] text-slate-700">
                {entry.actor_email ?? 'Database'}
              </td>
              <td className="px-4 py-3">
                {trailWhat(entry)}
                <p className="font-mono text-xs text-slate-500">{entry.row_id.slice(0, 8)}</p>
              </td>
              <td className="max-w-md px-4 py-3">
                <TrailChanges entry={entry} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {isMobile && (
        <DataCards label="Audit trail" loading={entries.isPending} empty={empty} loadingText="Loading the audit trail…">
          {entries.data?.map((entry) => (
            <li key={entry.id} className={DATA_CARD_CLASS}>
              <p className="font-medium text-slate-900">{trailWhat(entry)}</p>
              <p className="mt-1 text-xs break-all text-slate-500">
                {dateTime(entry.at)} · {entry.actor_email ?? 'Database'}
              </p>
              <div className="mt-2 border-t border-slate-100 pt-2">
                <TrailChanges entry={entry} />
              </div>
            </li>
          ))}
        </DataCards>
      )}
    </>
  )
}

/**
 * /admin/agents (Admin -> Agents): the claims of agent profiles, the corrections of agents' records and the
 * visibility requests (hide phone or email, out of search engines) to review, each approved, accepted, rejected or
 * revoked with a reason mailed to the agent; filtered by status and by agent name or account email; and the audit
 * trail of who filed and who decided what and when. Tab, filter and search live in the URL.
 */
export function AgentsPage() {
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const [draft, setDraft] = useState(search.q)
  const panel = <AgentsPanel search={search} navigate={navigate} draft={draft} setDraft={setDraft} />

  return (
    <section className="space-y-4">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Agents</h1>
        <p className="mt-1 text-sm text-slate-500">
          Claims of agent profiles, corrections of their records and visibility requests, with every decision mailed to
          the agent.
        </p>
      </div>

      <Tabs
        value={search.tab}
        onValueChange={(tab) =>
          void navigate({ search: (prev) => ({ ...prev, tab: AgentReviewSearchSchema.shape.tab.parse(tab) }) })
        }
      >
        <TabsList aria-label="Agent reviews">
          {AGENT_REVIEW_TABS.map((tab) => (
            <TabsTrigger key={tab} value={tab}>
              {TAB_LABELS[tab]}
            </TabsTrigger>
          ))}
        </TabsList>
        {/* one panel per tab (Radix renders the selected one), so each tab controls an element that exists */}
        {AGENT_REVIEW_TABS.map((tab) => (
          <TabsContent key={tab} value={tab} className="space-y-4">
            {tab === search.tab && panel}
          </TabsContent>
        ))}
      </Tabs>
    </section>
  )
}

/** The selected tab's panel: filters (not on the audit trail) and the queue or the trail. */
function AgentsPanel({
  search,
  navigate,
  draft,
  setDraft,
}: {
  search: ReturnType<typeof route.useSearch>
  navigate: ReturnType<typeof route.useNavigate>
  draft: string
  setDraft: (value: string) => void
}) {
  return (
    <>
      {search.tab !== 'trail' && (
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
          <Select
            aria-label="Filter by status"
            value={search.status}
            onChange={(event) =>
              void navigate({
                search: (prev) => ({ ...prev, status: AgentReviewSearchSchema.shape.status.parse(event.target.value) }),
                replace: true,
              })
            }
            className="sm:w-44"
          >
            {STATUS_FILTERS.map((status) => (
              <option key={status} value={status}>
                {STATUS_FILTER_LABELS[status]}
              </option>
            ))}
          </Select>
          <form
            role="search"
            className="sm:w-72"
            onSubmit={(event) => {
              event.preventDefault()
              void navigate({ search: (prev) => ({ ...prev, q: draft.trim() }), replace: true })
            }}
          >
            <Input
              type="search"
              aria-label="Search by agent or email"
              placeholder="Agent name or email"
              value={draft}
              onChange={(event) => {
                setDraft(event.target.value)
                if (event.target.value === '') void navigate({ search: (prev) => ({ ...prev, q: '' }), replace: true })
              }}
            />
          </form>
        </div>
      )}

      {search.tab === 'trail' ? <Trail /> : <Queue tab={search.tab} status={search.status} query={search.q} />}
    </>
  )
}
