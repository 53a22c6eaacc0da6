/**
 * What the agent-claim, agent-photo and agent-review functions share: who the caller is (Auth's getUser on their
 * bearer token, never a value in the body) and how a database refusal becomes the caller's answer (the claim
 * functions raise PostgREST status codes PT400, PT403, PT404, PT409, PT429 with a message naming the rule or the
 * field; 42501 is a refused privilege).
 */
import { HttpError } from './http.ts'
import { callerClient } from './supabase.ts'

export const SIGN_IN_MESSAGE = 'Sign in to claim or edit an agent profile.'
export const CONFIRM_EMAIL_MESSAGE = 'Confirm your email address first: open the link we sent when you signed up.'

/** A verified caller: their user id and account email. */
export type Caller = { id: string; email: string; authorization: string }

/**
 * The signed-in caller, from Auth. @throws HttpError 401 without a valid user token (the anon key is no user),
 * 403 while the account's email is unconfirmed.
 */
export async function verifiedCaller(request: Request): Promise<Caller> {
  const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]
  if (!token) throw new HttpError(401, SIGN_IN_MESSAGE)
  const authorization = `Bearer ${token}`
  const { data, error } = await callerClient(authorization).auth.getUser(token)
  if (error || !data.user?.email) throw new HttpError(401, SIGN_IN_MESSAGE)
  if (!data.user.email_confirmed_at) throw new HttpError(403, CONFIRM_EMAIL_MESSAGE)
  return { id: data.user.id, email: data.user.email, authorization }
}

/**
 * A PostgREST error as the caller's answer: PTxxx -> that status with the message; 42501 -> 403; anything else is
 * rethrown (the request shell answers a generic 500 and logs it). A message that starts with `<field>: ` also
 * names the field in `errors`.
 */
export function rpcFailure(error: { code?: string; message: string }): never {
  const status = /^PT(\d{3})$/.exec(error.code ?? '')?.[1]
  if (status || error.code === '42501') {
    const field = /^([a-zA-Z]+): (.+)$/.exec(error.message)
    throw new HttpError(
      status ? Number(status) : 403,
      field ? field[2]! : error.message,
      {},
      field ? { [field[1]!]: field[2]! } : undefined,
    )
  }
  throw Object.assign(new Error(error.message), { cause: error })
}
