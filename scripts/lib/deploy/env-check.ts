/**
 * `npm run deploy:check`'s rules: what a production `.env.production` must hold before anything is pushed
 * (docs/deploy.md). Each rule names the variable, where it goes (static host build, function secret, SQL editor) and
 * what breaks without it. URLs must be https and not point at this machine or a private network, since hosted Supabase
 * and the static host cannot reach those.
 */
import { parseAiConfig } from '@shared/ai/config.ts'
import { mailTransportFromEnv } from '@shared/mail.ts'

/** One finding: the variable and what is wrong with it. */
export interface EnvProblem {
  variable: string
  message: string
}

type Env = Record<string, string | undefined>

/** Where each required variable is used, for the messages. */
export const REQUIRED: Record<string, string> = {
  PROJECT_REF: '`supabase link --project-ref` needs it',
  PUBLIC_SUPABASE_URL: 'the site and admin builds fail; the browser cannot reach the API',
  PUBLIC_SUPABASE_ANON_KEY: 'the site and admin builds fail; the browser cannot call the API',
  SITE_URL:
    'track-pageview and notify-new-lead fail at start-up; canonical URLs, sitemap and auth email links are wrong',
  MAIL_API_URL: 'notify-new-lead fails at start-up: no new-lead emails',
  MAIL_API_KEY: 'notify-new-lead fails at start-up: no new-lead emails',
  MAIL_FROM: 'notify-new-lead fails at start-up: no new-lead emails',
  REPORT_REQUEST_HMAC_SECRET:
    'request-report, confirm-report, search-agents, track-pageview and newsletter-subscribe fail at start-up (it keys their rate limits)',
  SITE_BUILD_HOOK_URL: 'publishing a post never rebuilds the static site',
}

const LOCAL_HOST =
  /^(localhost|.*\.localhost|127(\.\d+){3}|0\.0\.0\.0|\[::1?\]|10(\.\d+){3}|192\.168(\.\d+){2}|172\.(1[6-9]|2\d|3[01])(\.\d+){2}|.*\.local)$/i

function publicHttpsUrl(env: Env, variable: string, problems: EnvProblem[]): URL | undefined {
  const value = env[variable]!
  let url: URL
  try {
    url = new URL(value)
  } catch {
    problems.push({ variable, message: `${variable} must be an absolute URL, got "${value}"` })
    return undefined
  }
  if (LOCAL_HOST.test(url.hostname)) {
    problems.push({
      variable,
      message: `${variable} points at ${url.hostname}, which hosted Supabase and the static host cannot reach`,
    })
  } else if (url.protocol !== 'https:') {
    problems.push({ variable, message: `${variable} must use https, got ${url.protocol}//` })
  }
  return url
}

/** The `role` claim of a legacy JWT key, or undefined when `key` is not a JWT. */
function jwtRole(key: string): string | undefined {
  const payload = key.split('.')[1]
  if (key.split('.').length !== 3 || !payload) return undefined
  try {
    return (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { role?: string }).role
  } catch {
    return undefined
  }
}

/**
 * Checks `env` (the parsed .env.production) and returns every problem, in a stable order; empty when it is ready.
 */
export function checkProductionEnv(env: Env): EnvProblem[] {
  const problems: EnvProblem[] = []
  const present = (variable: string) => (env[variable]?.trim() ?? '') !== ''
  for (const [variable, consequence] of Object.entries(REQUIRED)) {
    if (!present(variable)) problems.push({ variable, message: `${variable} is missing: ${consequence}` })
  }

  if (present('PROJECT_REF') && !/^[a-z]{20}$/.test(env.PROJECT_REF!)) {
    problems.push({
      variable: 'PROJECT_REF',
      message: 'PROJECT_REF must be the 20 lowercase letters of the project ref',
    })
  }
  for (const variable of ['PUBLIC_SUPABASE_URL', 'SITE_URL', 'MAIL_API_URL', 'SITE_BUILD_HOOK_URL']) {
    if (present(variable)) publicHttpsUrl(env, variable, problems)
  }
  if (present('PUBLIC_SUPABASE_ANON_KEY')) {
    const key = env.PUBLIC_SUPABASE_ANON_KEY!.trim()
    const role = jwtRole(key)
    if (key.startsWith('sb_secret_') || role === 'service_role') {
      problems.push({
        variable: 'PUBLIC_SUPABASE_ANON_KEY',
        message:
          'PUBLIC_SUPABASE_ANON_KEY is a secret key; the browser must get the publishable (sb_publishable_...) or anon key',
      })
    } else if (!key.startsWith('sb_publishable_') && role !== 'anon') {
      problems.push({
        variable: 'PUBLIC_SUPABASE_ANON_KEY',
        message: 'PUBLIC_SUPABASE_ANON_KEY must be the publishable key (sb_publishable_...) or the legacy anon JWT',
      })
    }
  }
  // the admin on its own origin: https, not the site's origin, and allowed by the admin-only functions' CORS
  if (present('ADMIN_URL')) {
    const admin = publicHttpsUrl(env, 'ADMIN_URL', problems)
    const site = present('SITE_URL') ? URL.parse(env.SITE_URL!) : null
    if (admin && site && admin.origin === site.origin) {
      problems.push({
        variable: 'ADMIN_URL',
        message: 'ADMIN_URL must be an origin of its own (e.g. https://admin.example.com), not the public site',
      })
    } else if (
      admin &&
      !(env.CORS_ALLOWED_ORIGINS ?? '')
        .split(',')
        .map((origin) => origin.trim().replace(/\/+$/, ''))
        .includes(admin.origin)
    ) {
      problems.push({
        variable: 'CORS_ALLOWED_ORIGINS',
        message: `CORS_ALLOWED_ORIGINS must list ${admin.origin}: the admin-only functions answer CORS only to the origins it names`,
      })
    }
  }
  if (present('REPORT_REQUEST_HMAC_SECRET') && env.REPORT_REQUEST_HMAC_SECRET!.length < 32) {
    problems.push({
      variable: 'REPORT_REQUEST_HMAC_SECRET',
      message: 'REPORT_REQUEST_HMAC_SECRET must be at least 32 characters (e.g. `openssl rand -hex 32`)',
    })
  }
  if (present('MAIL_API_URL') && present('MAIL_API_KEY') && present('MAIL_FROM')) {
    try {
      mailTransportFromEnv(env)
    } catch (error) {
      problems.push({ variable: 'MAIL_*', message: (error as Error).message })
    }
  }
  if (present('MAIL_OPERATORS')) {
    const bad = env
      .MAIL_OPERATORS!.split(',')
      .map((a) => a.trim())
      .filter((a) => a && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(a))
    if (bad.length > 0)
      problems.push({ variable: 'MAIL_OPERATORS', message: `MAIL_OPERATORS has invalid addresses: ${bad.join(', ')}` })
  }
  if (Object.keys(env).some((name) => name.startsWith('AI_'))) {
    try {
      parseAiConfig(env)
    } catch (error) {
      problems.push({ variable: 'AI_*', message: (error as Error).message })
    }
  }
  return problems
}

/** Function secrets (`supabase secrets set`) among the checked variables: everything the functions read. */
export function functionSecretNames(env: Env): string[] {
  return Object.keys(env)
    .filter(
      (name) =>
        /^(SITE_URL|MAIL_|AI_|ANALYTICS_|SEARCH_RATE_LIMIT|CORS_ALLOWED_ORIGINS|REPORT_REQUEST_HMAC_SECRET)/.test(
          name,
        ) && env[name]?.trim(),
    )
    .sort()
}
