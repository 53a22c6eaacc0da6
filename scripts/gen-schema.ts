/**
 * `npm run gen:schema` writes the declarative schema, `supabase/schemas/*.sql`, from `supabase/migrations`: a throwaway
 * cluster gets one database with only the stand-in's bootstrap and one with the bootstrap and every migration, and
 * each object the migrations create or change is written with the SQL that creates it
 * (supabase/local/declarative-schema.ts). `npm run check:schema` (`--check`) exits 1 when the committed files differ
 * from what the migrations produce; tests/integration/declarative-schema.test.ts checks that the files build the
 * same catalog as the migrations.
 */
import fs from 'node:fs'
import path from 'node:path'
import {
  applyMigrations,
  catalogObjects,
  freshDatabase,
  schemaFileContents,
} from '../supabase/local/declarative-schema.ts'
import { rootDir, startThrowawayStack } from '../supabase/local/throwaway-stack.ts'

const schemasDir = path.join(rootDir, 'supabase/schemas')
const check = process.argv.includes('--check')
const stack = await startThrowawayStack({ prefix: 'agent-insight-schema-', seed: false, functions: false })
let files: Record<string, string>
try {
  const baseUrl = await freshDatabase(stack.databaseUrl, 'schema_base')
  const migratedUrl = await freshDatabase(stack.databaseUrl, 'schema_migrated')
  await applyMigrations(migratedUrl, path.join(rootDir, 'supabase'))
  files = schemaFileContents(await catalogObjects(baseUrl), await catalogObjects(migratedUrl))
} finally {
  await stack.stop()
}

const committed = fs.existsSync(schemasDir) ? fs.readdirSync(schemasDir).filter((name) => name.endsWith('.sql')) : []
if (check) {
  const stale = [
    ...Object.entries(files)
      .filter(
        ([name, text]) =>
          !fs.existsSync(path.join(schemasDir, name)) || fs.readFileSync(path.join(schemasDir, name), 'utf8') !== text,
      )
      .map(([name]) => name),
    ...committed.filter((name) => !(name in files)),
  ]
  if (stale.length > 0) {
    console.error(
      `supabase/schemas is out of date with supabase/migrations (${stale.join(', ')}). Run \`npm run gen:schema\` and commit the result.`,
    )
    // a failing exit status is what makes `npm run check:schema` (and CI) stop on a stale schema file
    process.exit(1)
  }
  console.log('supabase/schemas matches the migrations.')
} else {
  fs.mkdirSync(schemasDir, { recursive: true })
  for (const name of committed.filter((file) => !(file in files))) fs.rmSync(path.join(schemasDir, name))
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(schemasDir, name), text)
  console.log(`Wrote ${Object.keys(files).length} files to supabase/schemas.`)
}
