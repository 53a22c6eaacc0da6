/**
 * Runs beside every integration test file (vitest `setupFiles`): what the file's tests created through the shared
 * helpers is removed when the file is done, so no file sees another's users.
 */
import { afterAll } from 'vitest'
import { deleteCreatedUsers } from './env.ts'

afterAll(deleteCreatedUsers)
