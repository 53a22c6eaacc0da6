/**
 * Every place the stand-in reaches into @supabase/lite (0.10.0) beyond its public API, in one file. Each patch names
 * the hosted behaviour it restores; on a lite upgrade, check each against the new version and drop the ones lite now
 * does itself. Nothing else in supabase/local writes lite's private fields or replaces globals.
 */
import type { App } from '@supabase/lite'
import { setExperimental } from '@supabase/lite'
import { FilesystemStorage } from './storage-files.ts'

/** Lite's connection object, as far as these patches use it (its fields are not part of lite's typed API). */
type LiteConnection = {
  normalizeDbError(error: unknown): unknown
  introspect(options: { useCache: boolean }): Promise<unknown>
  introspection?: unknown
  rlsState: string
  driver?: { end(options: { timeout: number }): Promise<void> }
  close(): Promise<void>
}

// Hosted Supabase always serves the Storage API (/storage/v1); lite gates it behind EXPERIMENTAL_STORAGE. Set when
// this module loads, before any App is made, as the environment variable would be.
setExperimental('storage', true)

/** Lite reads the Storage API's backend from the App's private `_storageAdapter`: a filesystem one in `storageDir`. */
export function attachStorage(app: App, storageDir: string): void {
  ;(app as unknown as { _storageAdapter: FilesystemStorage })._storageAdapter = new FilesystemStorage(storageDir)
}

/** Marks a database error whose SQLSTATE lite would lose (see preserveDatabaseErrors). */
export const errorMarker = '__postgres_error__'

/**
 * PostgREST answers a database error with its SQLSTATE and an HTTP status per class; lite answers 500 "SUP" for every
 * class outside the few it maps. Wraps lite's `normalizeDbError` so an error whose code `unmapped(code)` says lite
 * loses is tagged with its fields as JSON in the message (the API's postgrestErrors turns it back into PostgREST's
 * answer).
 */
export function preserveDatabaseErrors(connection: unknown, unmapped: (code: string) => boolean): void {
  const target = connection as LiteConnection
  const original = target.normalizeDbError.bind(target)
  target.normalizeDbError = (error: unknown) => {
    const normalized = original(error)
    if (!(normalized instanceof Error)) return normalized
    const fields = normalized as Error & { code?: unknown; detail?: string; hint?: string }
    const code = typeof fields.code === 'string' ? fields.code : undefined
    if (code && /^[0-9A-Z]{5}$/.test(code) && unmapped(code)) {
      const tagged = new Error(
        errorMarker +
          JSON.stringify({ code, message: fields.message, details: fields.detail ?? null, hint: fields.hint ?? null }),
      )
      return Object.assign(tagged, { code: 'LITE_UNMAPPED' })
    }
    return normalized
  }
}

let quieted = false

/**
 * PostgREST does not log the database errors a request causes (an RLS refusal, a unique violation): they are answers
 * to the client. Lite prints each with console.error; this drops exactly those (one PostgresError argument, or one
 * tagged by preserveDatabaseErrors) and passes every other call through. Installed once per process.
 */
export function quietDatabaseErrorLogs(): void {
  if (quieted) return
  quieted = true
  const original = console.error.bind(console)
  console.error = (...args: unknown[]) => {
    const first = args[0] as { constructor?: { name?: string }; message?: unknown } | undefined
    const isDatabaseAnswer =
      args.length === 1 &&
      first instanceof Error &&
      (first.constructor?.name === 'PostgresError' || String(first.message).startsWith(errorMarker))
    if (!isDatabaseAnswer) original(...args)
  }
}

/**
 * PostgREST reloads its schema cache on NOTIFY pgrst by loading a new one while it answers from the old one, and keeps
 * the old one when a load fails. Lite has no listener, and its `clearSchemaCache` drops the cache at once: each request
 * that arrives next reads the catalog itself, and when that read fails (it can deadlock with the DDL that caused the
 * reload) lite answers that request from an empty schema, so an existing function gets 404 PGRST202.
 *
 * Returns the listener: it has lite read the catalog into a new cache (lite's `introspect` without the cache, which
 * replaces the cache only when the read succeeds) and retries a failed read after 200 ms, up to 10 times. One reload
 * runs at a time; a NOTIFY during a reload runs one more after it, so the last change is always read.
 */
export function schemaCacheReloader(connection: unknown, log: (line: string) => void): () => void {
  const target = connection as LiteConnection
  let running = false
  let again = false
  const reload = async () => {
    for (let attempt = 1; ; attempt += 1) {
      // lite returns the cache it stored on success, and a new empty schema (storing nothing) on failure
      if ((await target.introspect({ useCache: false })) === target.introspection) return
      if (attempt === 10) {
        log('schema cache reload failed 10 times; answering from the previous schema')
        return
      }
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  return () => {
    if (running) {
      again = true
      return
    }
    running = true
    void (async () => {
      do {
        again = false
        await reload()
      } while (again)
      running = false
    })()
  }
}

/**
 * Hosted PostgREST uses the privileges the migrations grant. Lite grants ALL to the API roles on its first request
 * unless its private `rlsState` says RLS is already set up: mark it so.
 */
export function keepGrantsAsMigrated(connection: unknown): void {
  ;(connection as LiteConnection).rlsState = 'active'
}

/**
 * Stops the connection like a PostgREST shutdown: queries get up to 5 s to finish, then it closes. Lite's close() is
 * postgres.js's end() without a timeout, which waited for ever after 50 clients hit /rest/v1/rpc and hung up
 * (bench:load), with every database session idle, so the whole stack never stopped.
 */
export async function closeConnection(connection: unknown): Promise<void> {
  const target = connection as LiteConnection
  if (target.driver) await target.driver.end({ timeout: 5 })
  else await target.close()
}
