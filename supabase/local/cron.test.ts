import { describe, expect, it } from 'vitest'

import { cronIntervalMs } from './cron.ts'

describe('cronIntervalMs', () => {
  it("reads pg_cron's seconds interval and the every-minute schedule", () => {
    expect(cronIntervalMs('30 seconds')).toBe(30_000)
    expect(cronIntervalMs('1 seconds')).toBe(1_000)
    expect(cronIntervalMs('* * * * *')).toBe(60_000)
    expect(cronIntervalMs('*/10 * * * *')).toBe(600_000)
  })
  it('refuses what the stand-in cannot run', () => {
    expect(cronIntervalMs('0 3 * * *')).toBeNull()
    expect(cronIntervalMs('60 seconds')).toBeNull()
    expect(cronIntervalMs('0 seconds')).toBeNull()
  })
})
