/**
 * The Postgres URL the command-line scripts write to: DATABASE_URL from the environment, else from `.env`, else the
 * local stack (`postgres://postgres:postgres@127.0.0.1:<DB_PORT or 54322>/postgres`, started by `npm start`).
 */
import { parse as parseDotenv } from 'dotenv'
import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { rootDir } from '../env.ts'

/** @throws Error when the URL found is not a postgres:// URL. */
export function resolveDatabaseUrl(): string {
  const envFile = path.join(rootDir, '.env')
  const fromFile = fs.existsSync(envFile) ? parseDotenv(fs.readFileSync(envFile, 'utf8')) : {}
  const url =
    process.env.DATABASE_URL ??
    fromFile.DATABASE_URL ??
    `postgres://postgres:postgres@127.0.0.1:${process.env.DB_PORT ?? fromFile.DB_PORT ?? 54322}/postgres`
  const parsed = z.url({ protocol: /^postgres(ql)?$/, error: 'DATABASE_URL must be a postgres:// URL' }).safeParse(url)
  if (!parsed.success) throw new Error(parsed.error.issues[0]!.message)
  return parsed.data
}
