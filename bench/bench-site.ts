/**
 * The data the site benchmarks and screenshots run against: on a throwaway stack, the seed posts plus thirty agents
 * with closed sales in one ZIP, so the search and profile pages have something to show. Rows are written through the
 * tests' data factory (tests/support/factories.ts), so the benches and the tests build agents and sales one way.
 */
import pg from 'pg'
import { clientDb, insertAgents, insertSales } from '../tests/support/factories.ts'

/** Thirty agents with 5-12 closed sales each in ZIP 02139, then the metrics refresh. Returns one agent id. */
export async function seedAgents(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const first = ['Jane', 'Marcus', 'Priya', 'Tom', 'Ana', 'Wei', 'Grace', 'Omar', 'Lena', 'Diego']
    const last = ['Smith', 'Johnson', 'Nguyen', 'Garcia', 'Okafor', 'Cohen']
    const db = clientDb(client)
    const place = { city: 'Cambridge', state: 'MA', zip: '02139' }
    const ids = await insertAgents(
      Array.from({ length: 30 }, (_, index) => ({
        name: `${first[index % first.length]} ${last[index % last.length]}`,
        brokerage: 'Bench Realty',
        phone: '(617) 555-0100',
        email: 'bench@example.com',
        rating: 4.5,
        reviewCount: 20,
        licenseNumber: 'MA-000000',
        yearsExperience: 9,
        mlsId: `DEMO-BENCH-${index}`,
        ...place,
      })),
      db,
    )
    await insertSales(
      ids.flatMap((agentId, index) =>
        Array.from({ length: 5 + (index % 8) }, (_, sale) => {
          const list = 450_000 + sale * 30_000 + index * 5_000
          return {
            agentId,
            address: `${10 + sale} Bench St`,
            ...place,
            listPrice: list,
            salePrice: list + ((sale % 3) - 1) * 8_000,
            daysAgo: sale * 11 + index,
            daysOnMarket: 8 + sale * 3,
            source: 'demo',
            sourceRecordId: `bench-${index}-${sale}`,
          }
        }),
      ),
      db,
    )
    const agentId = ids[0]!
    await client.query(
      `insert into public.zip_market_benchmarks (zip_code, city, state, period_end, median_sale_price, avg_sale_to_list_fraction, median_dom, homes_sold)
       values ('02139', 'Cambridge', 'MA', '2026-09-30', 905000, 1.031, 21, 48) on conflict (zip_code) do nothing`,
    )
    await client.query(`select public.refresh_agent_metrics()`)
    return agentId
  } finally {
    await client.end()
  }
}
