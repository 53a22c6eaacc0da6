/**
 * The browser side of claiming and completing an agent profile (/account/claim, /account/agent, the owner's
 * corrections on the sales behind a figure): the signed-in session through supabase-js (loaded on first use, so
 * pages without a session never download it), the agent-claim and agent-photo functions, and the owner's rows, which
 * RLS lets only them read and write (agent_claims, agent_corrections, agent_visibility_requests, their agent row).
 */
import type { Session } from '@supabase/supabase-js'

import type { Database } from '@shared/database.types.ts'
import { callFunction, type FunctionResponse } from './functions-client'

export type AgentRow = Database['public']['Tables']['agents']['Row']
export type ClaimRow = Database['public']['Tables']['agent_claims']['Row']
export type CorrectionRow = Database['public']['Tables']['agent_corrections']['Row']
export type VisibilityRequestRow = Database['public']['Tables']['agent_visibility_requests']['Row']

/** The site's supabase-js client, loaded on first use. */
export async function siteClient() {
  const { supabase } = await import('./supabase')
  return supabase
}

/** The current session (refreshed when expired), or null when signed out or unreadable. */
export async function currentSession(): Promise<Session | null> {
  const supabase = await siteClient()
  const { data, error } = await supabase.auth.getSession()
  if (error) return null
  return data.session
}

/** `/auth?next=<this page>`: sign in and come back. */
export function signInUrl(): string {
  return `/auth?next=${encodeURIComponent(window.location.pathname + window.location.search)}`
}

/** An answer's message: the function's `error`, else a status line. */
export function answerError(response: FunctionResponse<unknown>): string {
  const body = response.body as { error?: unknown } | null
  return typeof body?.error === 'string'
    ? body.error
    : `Something went wrong (error ${response.status}). Please try again.`
}

/** POSTs to one of the claim functions as the signed-in user. @throws TypeError when the network fails. */
export function callAsUser<T>(slug: 'agent-claim' | 'agent-photo', body: unknown, session: Session) {
  return callFunction<T>(slug, body, undefined, session.access_token)
}

/** The columns of an agent the claim and owner pages show. */
export const OWNER_AGENT_COLUMNS =
  'id, name, brokerage, city, state, email, phone, photo_url, license_number, bio, specialties, languages, hide_phone, hide_email, noindex, claimed_at, profile_updated_at, corrections_accepted, corrections_pending' as const

/** The columns of a claim the pages show (everything but who decided). */
export const CLAIM_COLUMNS =
  'id, agent_id, status, method, code_sent_to, approved_at, decided_at, decision_reason, created_at' as const

/** A PostgREST error message without a leading `<field>: ` (the field is named by where it is shown). */
export function databaseMessage(error: { message: string }): string {
  return error.message.replace(/^[a-zA-Z]+: /, '')
}
