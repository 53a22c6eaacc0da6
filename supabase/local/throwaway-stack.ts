/**
 * One throwaway local stack: its own PostgreSQL cluster in a temporary directory, free ports, a fresh JWT secret and
 * keys, bootstrapped and migrated like `npm start`'s, and removed again by `stop()`. The one starter for everything
 * that needs a stack it can throw away: the tests (tests/support/test-stack.ts), the benches (bench/*), type
 * generation (scripts/gen-types.ts) and the import bench's database (supabase/local/throwaway-postgres.ts).
 * Runs never share data with `npm start` or with each other, and never read the developer's function secrets.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { generateApiKeys } from './jwt.ts'
import { freePort } from './postgres.ts'
import { startLocalStack, type LocalStack, type LocalStackOptions } from './stack.ts'

/** Repository root (supabase/ and .data/ are found beneath it). */
export const rootDir = path.resolve(import.meta.dirname, '../..')

export interface ThrowawayStackOptions {
  /** Start the edge functions (default true). */
  functions?: boolean
  /** Seed supabase/seed.sql (default true). */
  seed?: boolean
  /** More function folders beside supabase/functions (the tests' fixture functions). */
  extraFunctions?: LocalStackOptions['extraFunctions']
  /** Secrets for the functions (default none). */
  functionSecrets?: Record<string, string>
  /** Public site URL for auth redirects and canonical links (default http://localhost:4321). */
  siteUrl?: string
  /** Prefix of the temporary directory's name (default agent-insight-stack-). */
  prefix?: string
  /** A config.toml whose [auth] sections replace supabase/config.toml's (tests raise the per-IP limits). */
  authConfigToml?: string
  log?: (line: string) => void
}

/** A running throwaway stack with the keys it signed; `stop()` stops it and deletes its directory. */
export interface ThrowawayStack extends LocalStack {
  /** The temporary directory holding the cluster (and a link to the shared Deno cache). */
  dataDir: string
  jwtSecret: string
  anonKey: string
  serviceRoleKey: string
}

/**
 * Starts the stack on free ports.
 * @throws the stack's start-up error (its directory is removed first)
 */
export async function startThrowawayStack(options: ThrowawayStackOptions = {}): Promise<ThrowawayStack> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), options.prefix ?? 'agent-insight-stack-'))
  // initdb runs as the unprivileged postgres user when we are root; it must be able to enter the directory.
  fs.chmodSync(dataDir, 0o755)
  // Deno's package cache is kept between runs (downloads are slow, the cache holds no project data).
  const denoCache = path.join(rootDir, '.data/deno')
  fs.mkdirSync(denoCache, { recursive: true })
  fs.symlinkSync(denoCache, path.join(dataDir, 'deno'))
  const jwtSecret = `throwaway-${Math.random().toString(36).slice(2)}-${Date.now()}`.padEnd(40, 'x')
  const keys = await generateApiKeys(jwtSecret)
  let stack: LocalStack
  try {
    stack = await startLocalStack({
      rootDir,
      dataDir,
      jwtSecret,
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
      siteUrl: options.siteUrl ?? 'http://localhost:4321',
      inheritSecrets: false,
      functionSecrets: options.functionSecrets,
      ports: { api: await freePort(), db: await freePort(), mailbox: await freePort() },
      functions: options.functions ?? true,
      seed: options.seed ?? true,
      extraFunctions: options.extraFunctions,
      authConfigToml: options.authConfigToml,
      log: options.log,
    })
  } catch (error) {
    fs.rmSync(dataDir, { recursive: true, force: true })
    throw error
  }
  return {
    ...stack,
    dataDir,
    jwtSecret,
    anonKey: keys.anonKey,
    serviceRoleKey: keys.serviceRoleKey,
    async stop() {
      await stack.stop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
