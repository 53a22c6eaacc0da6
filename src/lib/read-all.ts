/**
 * Paged reads at build time: PostgREST answers at most its max-rows (1,000) rows per request, so a plain select
 * silently drops the rest (a blog of 1,001 posts would lose its oldest article).
 */

/** Rows per PostgREST request (the API's default max-rows). */
const PAGE_SIZE = 1000

export type PageResult<T> = PromiseLike<{ data: T[] | null; error: { message: string } | null }>

/** Reads every row of a query in pages of PAGE_SIZE; `page(from, to)` must order by a unique key. */
export async function readAll<T>(what: string, page: (from: number, to: number) => PageResult<T>): Promise<T[]> {
  const rows: T[] = []
  for (let from = 0; ; from += PAGE_SIZE) {
    const { data, error } = await page(from, from + PAGE_SIZE - 1)
    if (error) throw new Error(`Could not load ${what}: ${error.message}`)
    rows.push(...(data ?? []))
    if (!data || data.length < PAGE_SIZE) return rows
  }
}
