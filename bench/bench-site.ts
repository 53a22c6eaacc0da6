/**
 * The data the site benchmarks and screenshots run against: on a throwaway stack, the seed posts plus thirty agents
 * with closed sales in one ZIP, so the search and profile pages have something to show.
 */
import pg from 'pg'

/** Thirty agents with 5-12 closed sales each in ZIP 02139, then the metrics refresh. Returns one agent id. */
export async function seedAgents(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const first = ['Jane', 'Marcus', 'Priya', 'Tom', 'Ana', 'Wei', 'Grace', 'Omar', 'Lena', 'Diego']
    const last = ['Smith', 'Johnson', 'Nguyen', 'Garcia', 'Okafor', 'Cohen']
    let agentId = ''
    for (let index = 0; index < 30; index += 1) {
      const name = `${first[index % first.length]} ${last[index % last.length]}`
      const { rows } = await client.query<{ id: string }>(
        `insert into public.agents (name, brokerage, phone, email, rating, review_count, license_number, years_experience, mls_id, city, state, zip_code)
         values ($1, 'Bench Realty', '(617) 555-0100', 'bench@example.com', 4.5, 20, 'MA-000000', 9, $2, 'Cambridge', 'MA', '02139') returning id`,
        [name, `DEMO-BENCH-${index}`],
      )
      agentId ||= rows[0]!.id
      for (let sale = 0; sale < 5 + (index % 8); sale += 1) {
        const list = 450_000 + sale * 30_000 + index * 5_000
        await client.query(
          `insert into public.properties (agent_id, address, city, state, zip_code, list_price, sale_price, sale_date, days_on_market, standard_status, source, source_record_id)
           values ($1, $2, 'Cambridge', 'MA', '02139', $3, $4, current_date - $5::integer, $6, 'Closed', 'demo', $7)`,
          [
            rows[0]!.id,
            `${10 + sale} Bench St`,
            list,
            list + ((sale % 3) - 1) * 8_000,
            sale * 11 + index,
            8 + sale * 3,
            `bench-${index}-${sale}`,
          ],
        )
      }
    }
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
