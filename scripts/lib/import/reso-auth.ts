/**
 * Access tokens for the RESO Web API: a static bearer token the MLS issued (RESO_API_TOKEN), or OAuth 2.0 client
 * credentials (RFC 6749 section 4.4: RESO_TOKEN_URL, RESO_CLIENT_ID, RESO_CLIENT_SECRET, optional RESO_SCOPE), which
 * most production RESO servers use. Client-credential tokens are fetched with oauth4webapi, cached, and renewed before
 * they expire (a minute early, or halfway through a lifetime shorter than two minutes) and when the server refuses
 * one.
 */
import * as oauth from 'oauth4webapi'
import { z } from 'zod'
import { ResoApiError } from './reso-client.ts'

const loopback = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** https, or http to this machine only (a local test server): a client secret never crosses a network in clear. */
const secureUrl = (name: string, what: string) =>
  z
    .url({ protocol: /^https?$/, error: `${name} must be the http(s) URL of ${what}` })
    .refine(
      (value) => new URL(value).protocol === 'https:' || loopback.has(new URL(value).hostname),
      `${name} must use https (http only to 127.0.0.1 or localhost)`,
    )

const optional = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
  z.string().trim().optional(),
)

/**
 * The RESO_* environment: RESO_API_URL (OData service root) and either RESO_API_TOKEN or the OAuth2 client
 * credentials. RESO_TOKEN_AUTH picks how the client authenticates at the token endpoint: client_secret_basic (HTTP
 * Basic, the default every OAuth2 server must accept) or client_secret_post (id and secret in the form body).
 */
export const ResoApiEnvSchema = z
  .object({
    RESO_API_URL: secureUrl('RESO_API_URL', 'the OData service root'),
    RESO_API_TOKEN: optional,
    RESO_TOKEN_URL: z.preprocess(
      (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
      secureUrl('RESO_TOKEN_URL', 'the OAuth2 token endpoint').optional(),
    ),
    RESO_CLIENT_ID: optional,
    RESO_CLIENT_SECRET: optional,
    RESO_SCOPE: optional,
    RESO_TOKEN_AUTH: z.preprocess(
      (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
      z
        .enum(
          ['client_secret_basic', 'client_secret_post'],
          'RESO_TOKEN_AUTH must be client_secret_basic or client_secret_post',
        )
        .default('client_secret_basic'),
    ),
  })
  .superRefine((env, ctx) => {
    const oauthVariables = [env.RESO_TOKEN_URL, env.RESO_CLIENT_ID, env.RESO_CLIENT_SECRET]
    if (oauthVariables.some(Boolean)) {
      const missing = (['RESO_TOKEN_URL', 'RESO_CLIENT_ID', 'RESO_CLIENT_SECRET'] as const).filter((name) => !env[name])
      if (missing.length > 0)
        ctx.addIssue({
          code: 'custom',
          path: [missing[0]!],
          message: `OAuth2 client credentials need RESO_TOKEN_URL, RESO_CLIENT_ID and RESO_CLIENT_SECRET; missing ${missing.join(', ')}`,
        })
    } else if (!env.RESO_API_TOKEN) {
      ctx.addIssue({
        code: 'custom',
        path: ['RESO_API_TOKEN'],
        message:
          'set RESO_API_TOKEN (a bearer token the MLS issued) or RESO_TOKEN_URL, RESO_CLIENT_ID and RESO_CLIENT_SECRET (OAuth2 client credentials)',
      })
    }
  })

export type ResoAuthConfig =
  | { kind: 'bearer'; token: string }
  | {
      kind: 'client_credentials'
      tokenUrl: string
      clientId: string
      clientSecret: string
      scope?: string
      method: 'client_secret_basic' | 'client_secret_post'
    }

/**
 * Reads the RESO_* variables. Client credentials win over RESO_API_TOKEN when both are set (a static token expires).
 * @throws Error naming each missing or invalid variable.
 */
export function resoApiConfig(env: Record<string, string | undefined> = process.env): {
  baseUrl: string
  auth: ResoAuthConfig
} {
  const parsed = ResoApiEnvSchema.safeParse(env)
  if (!parsed.success)
    throw new Error(`RESO Web API configuration: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`)
  const e = parsed.data
  const auth: ResoAuthConfig = e.RESO_TOKEN_URL
    ? {
        kind: 'client_credentials',
        tokenUrl: e.RESO_TOKEN_URL,
        clientId: e.RESO_CLIENT_ID!,
        clientSecret: e.RESO_CLIENT_SECRET!,
        ...(e.RESO_SCOPE ? { scope: e.RESO_SCOPE } : {}),
        method: e.RESO_TOKEN_AUTH,
      }
    : { kind: 'bearer', token: e.RESO_API_TOKEN! }
  return { baseUrl: e.RESO_API_URL, auth }
}

/** Where the sync gets its bearer token. */
export interface AccessTokenSource {
  /** A token that is not about to expire. @throws ResoApiError when the token endpoint refuses or fails. */
  token(): Promise<string>
  /** Drops the current token after the API refused it; false when no other token can be had (a static one). */
  renew(): boolean
  /** What to check when the API refuses the token (401), naming the variables. */
  readonly refusedHint: string
}

/** A static bearer token (RESO_API_TOKEN). */
export function staticToken(token: string): AccessTokenSource {
  return {
    token: async () => token,
    renew: () => false,
    refusedHint: 'check RESO_API_TOKEN (it may have expired or been revoked; the MLS issues a new one)',
  }
}

export interface ClientCredentialsOptions {
  fetch?: typeof fetch
  /** Clock in ms since the epoch (tests move it forward). Default Date.now. */
  now?: () => number
  sleep?: (ms: number) => Promise<void>
  /** Attempts after the first when the token endpoint answers 429/5xx or cannot be reached. Default 3. */
  maxRetries?: number
  retryDelayMs?: number
  log?: (line: string) => void
}

/** Seconds before expiry at which a token is renewed: a minute, or half of a lifetime under two minutes. */
export function renewalMarginSeconds(lifetimeSeconds: number): number {
  return Math.min(60, lifetimeSeconds / 2)
}

/**
 * OAuth2 client credentials grant against `config.tokenUrl`. The token is requested on first use, kept until
 * `renewalMarginSeconds` before its `expires_in` (kept until refused when the server sends none), and requested again
 * after that or after `renew()`.
 */
export function clientCredentialsToken(
  config: Extract<ResoAuthConfig, { kind: 'client_credentials' }>,
  options: ClientCredentialsOptions = {},
): AccessTokenSource {
  const now = options.now ?? Date.now
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const maxRetries = options.maxRetries ?? 3
  const retryDelayMs = options.retryDelayMs ?? 1000
  const tokenUrl = new URL(config.tokenUrl)
  const as: oauth.AuthorizationServer = { issuer: tokenUrl.origin, token_endpoint: tokenUrl.href }
  const client: oauth.Client = { client_id: config.clientId }
  const clientAuth =
    config.method === 'client_secret_post'
      ? oauth.ClientSecretPost(config.clientSecret)
      : oauth.ClientSecretBasic(config.clientSecret)
  const requestOptions: oauth.TokenEndpointRequestOptions = {
    [oauth.customFetch]: options.fetch ?? fetch,
    ...(tokenUrl.protocol === 'http:' ? { [oauth.allowInsecureRequests]: true } : {}),
  }
  let current: { token: string; renewAt: number } | null = null
  const where = `RESO_TOKEN_URL ${tokenUrl.href}`

  async function request(): Promise<oauth.TokenEndpointResponse> {
    for (let attempt = 0; ; attempt += 1) {
      let response: Response
      try {
        response = await oauth.clientCredentialsGrantRequest(
          as,
          client,
          clientAuth,
          config.scope ? { scope: config.scope } : {},
          requestOptions,
        )
      } catch (error) {
        const reason = [(error as Error).message, ((error as Error).cause as Error | undefined)?.message]
          .filter(Boolean)
          .join(': ')
        if (attempt >= maxRetries)
          throw new ResoApiError(`${where} could not be reached after ${attempt + 1} attempts: ${reason}`, 0)
        options.log?.(`  token endpoint unreachable (${reason}); retrying in ${retryDelayMs * 2 ** attempt} ms`)
        await sleep(retryDelayMs * 2 ** attempt)
        continue
      }
      if ((response.status === 429 || response.status >= 500) && attempt < maxRetries) {
        await response.body?.cancel()
        const retryAfter = Number(response.headers.get('retry-after'))
        const delay = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : retryDelayMs * 2 ** attempt
        options.log?.(`  token endpoint answered ${response.status}; retrying in ${delay} ms`)
        await sleep(delay)
        continue
      }
      try {
        return await oauth.processClientCredentialsResponse(as, client, response)
      } catch (error) {
        throw await tokenError(error, response)
      }
    }
  }

  async function tokenError(error: unknown, response: Response): Promise<ResoApiError> {
    let body: { error?: unknown; error_description?: unknown } | undefined
    if (error instanceof oauth.ResponseBodyError) body = error.cause
    // a 401 with a WWW-Authenticate challenge (RFC 6749 section 5.2) is reported before its body is read
    else if (error instanceof oauth.WWWAuthenticateChallengeError && !response.bodyUsed)
      body = (await response.json().catch(() => undefined)) as typeof body
    if (body && typeof body.error === 'string') {
      const code = body.error
      const description = typeof body.error_description === 'string' ? body.error_description : undefined
      const said = `${response.status} ${code}${description ? `: ${description}` : ''}`
      const hint =
        code === 'invalid_client' || response.status === 401
          ? 'check RESO_CLIENT_ID and RESO_CLIENT_SECRET'
          : code === 'invalid_scope'
            ? 'check RESO_SCOPE (the scope the MLS granted this client)'
            : code === 'unauthorized_client'
              ? 'the MLS has not allowed this client the client_credentials grant'
              : code === 'invalid_request' && config.method === 'client_secret_basic'
                ? 'some servers want the client id and secret in the form body: set RESO_TOKEN_AUTH=client_secret_post'
                : 'check RESO_CLIENT_ID, RESO_CLIENT_SECRET and RESO_SCOPE'
      return new ResoApiError(`${where} refused the client credentials (${said}): ${hint}`, response.status)
    }
    const hint = response.status === 401 ? ': check RESO_CLIENT_ID and RESO_CLIENT_SECRET' : ''
    return new ResoApiError(
      `${where} answered ${response.status} without a usable access token (${(error as Error).message})${hint}`,
      response.status,
    )
  }

  return {
    async token() {
      if (current && now() < current.renewAt) return current.token
      const answer = await request()
      const lifetime = typeof answer.expires_in === 'number' && answer.expires_in > 0 ? answer.expires_in : null
      current = {
        token: answer.access_token,
        renewAt: lifetime === null ? Infinity : now() + (lifetime - renewalMarginSeconds(lifetime)) * 1000,
      }
      return current.token
    },
    renew() {
      current = null
      return true
    },
    refusedHint:
      'a new token from RESO_TOKEN_URL was refused as well: check that RESO_CLIENT_ID may use this server, and RESO_SCOPE',
  }
}

/** The token source for a configuration. */
export function accessTokenSource(auth: ResoAuthConfig, options: ClientCredentialsOptions = {}): AccessTokenSource {
  return auth.kind === 'bearer' ? staticToken(auth.token) : clientCredentialsToken(auth, options)
}
