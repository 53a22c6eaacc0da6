/**
 * The declarative schema (supabase/schemas/*.sql) and the migrations describe the same database: one fresh database
 * gets every migration, another the schema files, and their catalogs (every object with the SQL that creates it,
 * supabase/local/declarative-schema.ts) must agree. A migration without its schema change, or a schema edit without
 * its migration, fails here naming the object; `npm run gen:schema` rewrites the files from the migrations.
 */
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'
import {
  applyMigrations,
  applySchemaFiles,
  catalogDifferences,
  catalogObjects,
  dropDatabase,
  freshDatabase,
} from '../../supabase/local/declarative-schema.ts'
import { rootDir } from '../../supabase/local/throwaway-stack.ts'
import { testEnv } from '../support/env.ts'

const run = `${process.pid}_${Date.now().toString(36)}`
const fromMigrations = `schema_check_migrations_${run}`
const fromSchemaFiles = `schema_check_files_${run}`

afterAll(async () => {
  await dropDatabase(testEnv.databaseUrl, fromMigrations)
  await dropDatabase(testEnv.databaseUrl, fromSchemaFiles)
})

it('builds the same catalog from supabase/schemas as from supabase/migrations', async () => {
  const migratedUrl = await freshDatabase(testEnv.databaseUrl, fromMigrations)
  await applyMigrations(migratedUrl, path.join(rootDir, 'supabase'))
  const declaredUrl = await freshDatabase(testEnv.databaseUrl, fromSchemaFiles)
  await applySchemaFiles(declaredUrl, path.join(rootDir, 'supabase/schemas'))

  const differences = catalogDifferences(await catalogObjects(migratedUrl), await catalogObjects(declaredUrl))
  expect(differences, 'run `npm run gen:schema` after changing a migration (supabase/schemas/README.md)').toEqual({
    missing: [],
    extra: [],
    changed: [],
  })
}, 180_000)
