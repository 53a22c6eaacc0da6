/**
 * Polls until a condition yields a value: for effects that happen after a commit or in another process (webhook
 * deliveries, e-mails, background jobs). Never a fixed sleep.
 */

/**
 * Calls `check` every 100 ms until it returns something other than `undefined`, and returns that.
 * @param what names the awaited condition in the timeout error
 * @param timeoutMs how long to keep polling (milliseconds, default 20 000)
 * @throws Error "<what> did not happen within <n> ms" when time runs out
 */
export async function waitFor<T>(
  check: () => Promise<T | undefined> | T | undefined,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
