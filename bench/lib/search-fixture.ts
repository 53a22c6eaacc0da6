/**
 * What bench/search.ts and bench/load.ts share: a throwaway stack with only the search-agents function, realistic
 * generated agents and closed sales, and varied search queries drawn from them.
 */
import { serve } from '@hono/node-server'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import type pg from 'pg'
import { loadZipBenchmarks } from '../../scripts/lib/import/zip-benchmarks.ts'
import { startFunctions } from '../../supabase/local/functions.ts'
import { rootDir, startThrowawayStack } from '../../supabase/local/throwaway-stack.ts'
import type { SearchType } from '@shared/search-contract.ts'
import { freePort } from '../../supabase/local/postgres.ts'
import { createRandom } from '../../scripts/lib/demo/random.ts'

// Common US first and last names (SSA and Census lists): many agents share a first or a last name, as they do.
const FIRST_NAMES =
  `James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William Barbara Richard Susan Joseph
Jessica Thomas Sarah Christopher Karen Charles Lisa Daniel Nancy Matthew Betty Anthony Sandra Mark Margaret Donald Ashley
Steven Kimberly Andrew Emily Paul Donna Joshua Michelle Kenneth Carol Kevin Amanda Brian Melissa George Deborah Timothy
Stephanie Ronald Rebecca Jason Sharon Edward Laura Jeffrey Cynthia Ryan Dorothy Jacob Amy Gary Kathleen Nicholas Angela
Eric Shirley Jonathan Emma Stephen Brenda Larry Pamela Justin Nicole Scott Anna Brandon Samantha Benjamin Katherine Samuel
Christine Gregory Debra Alexander Rachel Patrick Carolyn Frank Janet Raymond Maria Jack Olivia Dennis Heather Jerry Helen
Tyler Catherine Aaron Diane Jose Julie Adam Victoria Nathan Joyce Henry Lauren Zachary Kelly Douglas Christina Peter Ruth
Kyle Joan Noah Virginia Ethan Judith Jeremy Evelyn Christian Hannah Walter Andrea Keith Megan Austin Cheryl Roger Jacqueline
Terry Madison Sean Teresa Gerald Abigail Carl Sophia Dylan Martha Harold Sara Jordan Gloria Jesse Janice Bryan Kathryn
Lawrence Ann Arthur Isabella Gabriel Judy Bruce Charlotte Logan Julia Billy Grace Joe Amber Alan Alice Juan Jean Elijah
Denise Willie Frances Albert Danielle Wayne Marilyn Randy Natalie Mason Beverly Vincent Diana Liam Brittany Roy Theresa
Bobby Kayla Caleb Alexis Bradley Doris Russell Lori Lucas Tiffany`.split(/\s+/)
const LAST_NAMES =
  `Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson
Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson Walker
Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter
Roberts Gomez Phillips Evans Turner Diaz Parker Cruz Edwards Collins Reyes Stewart Morris Morales Murphy Cook Rogers
Gutierrez Ortiz Morgan Cooper Peterson Bailey Reed Kelly Howard Ramos Kim Cox Ward Richardson Watson Brooks Chavez Wood
James Bennett Gray Mendoza Ruiz Hughes Price Alvarez Castillo Sanders Patel Myers Long Ross Foster Jimenez Powell Jenkins
Perry Russell Sullivan Bell Coleman Butler Henderson Barnes Gonzales Fisher Vasquez Simmons Romero Jordan Patterson
Alexander Hamilton Graham Reynolds Griffin Wallace Moreno West Cole Hayes Bryant Herrera Gibson Ellis Tran Medina Aguilar
Stevens Murray Ford Castro Marshall Owens Harrison Fernandez McDonald Woods Washington Kennedy Wells Vargas Henry Chen
Freeman Webb Tucker Guzman Burns Crawford Olson Simpson Porter Hunter Gordon Mendez Silva Shaw Snyder Mason Dixon Munoz
Hunt Hicks Holmes Palmer Wagner Black Robertson Boyd Rose Stone Salazar Fox Warren Mills Meyer Rice Schmidt Garza Daniels
Ferguson Nichols Stephens Soto Weaver Ryan Gardner Payne Grant Dunn Kelley Spencer Hawkins Arnold Pierce Vazquez Hansen
Peters Santos Hart Bradley Knight Elliott Cunningham Duncan Armstrong Hudson Carroll Lane Riley Andrews Alvarado Ray
Delgado Berry Perkins Hoffman Johnston Matthews Pena Richards Contreras Willis Carpenter Lawrence Sandoval Guerrero George
Chapman Rios Estrada Ortega Watkins Greene Nunez Wheeler Valdez Harper Burke Larson Santiago Maldonado Morrison Franklin
Carlson Austin Dominguez Carr Lawson Jacobs Obrien Lynch Singh Vega Bishop Montgomery Oliver Jensen Harvey Williamson
Gilbert Dean Sims Espinoza Howell Li Wong Reid Hanson Le McCoy Garrett Burton Fuller Wang Weber Welch Rojas Lucas Marquez
Fields Park Yang Little Banks Padilla Day Walsh Bowman Schultz Luna Fowler Mejia Davidson Acosta Brewer May Holland Juarez
Newman Pearson Curtis Cortez Douglas Schneider Joseph Barrett Navarro Figueroa Keller Avila Wade Molina Stanley Hopkins
Campos Barnett Bates Chambers Caldwell Beck Lambert Miranda Byrd Craig Ayala Lowe Frazier Powers Neal Leonard Gregory
Carrillo Sutton Fleming Rhodes Shelton Schwartz Norris Jennings Watts Duran Walters Cohen McDaniel Moran Parks Steele
Vaughn Becker Holt Deleon Barker Terry Hale Leon Hail Benson Haynes Horton Miles Lyons Pham Graves Bush Thornton Wolfe
Warner Cabrera McKinney Mann Zimmerman Dawson Lara Fletcher Page McCarthy Love Robles Cervantes Solis Erickson Reeves
Chang Klein Salinas Fuentes Baldwin Daniel Simon Velasquez Hardy Higgins Aguirre Lin Cummings Chandler Sharp Barber
Bowen Ochoa Dennis Robbins Liu Ramsey Francis Griffith Paul Blair Oconnor Cardenas Pacheco Cross Calderon Quinn Moss
Swanson Chan Rivas Khan Rodgers Serrano Fitzgerald Rosales Stevenson Christensen Manning Gill Curry McLaughlin Harmon
McGee Gross Doyle Garner Newton Burgess Reese Walton Blake Trujillo Adkins Brady Goodman Roman Webster Goodwin Fischer
Huang Potter Delacruz Montoya Todd Wu Hines Mullins Castaneda Malone Cannon Tate Mack Sherman Hubbard Hodges Zhang Guerra
Wolf Valencia Saunders Franco Rowe Gallagher Farmer Hammond Hampton Townsend Ingram Wise Gallegos Clarke Barton Schroeder
Maxwell Waters Logan Camacho Strickland Norman Person Colon Parsons Frank Harrington Glover Osborne Buchanan Casey Floyd
Patton Ibarra Ball Tyler Suarez Bowers Orozco Salas Cobb Gibbs Andrade Bauer Conner Moody Escobar McGuire Lloyd Mueller
Hartman French Kramer McBride Pope Lindsey Velazquez Norton McCormick Sparks Flynn Yates Hogan Marsh Macias Villanueva
Zamora Pratt Stokes Owen Ballard Lang Brock Villarreal Charles Drake Barrera Cain Patrick Pineda Burnett Mercado Santana
Shepherd Bautista Ali Shaffer Lamb Trevino McKenzie Hess Beil Olsen Cochran Morton Nash Wilkins Petersen Briggs Shah
Roth Nicholson Holloway Lozano Rangel Flowers Hoover Short Arias Mora Valenzuela Bryan Meyers Weiss Underwood Bass
Greer Summers Houston Carson Morrow Clayton Whitaker Decker Yoder Collier Zuniga Carey Wilcox Melendez Poole Roberson
Larsen Conley Davenport Copeland Massey Lam Huff Rocha Cameron Jefferson Hood Monroe Anthony Pittman Huynh Randall
Singleton Kirk Combs Mathis Christian Skinner Bradford Richard Galvan Wall Boone Kirby Wilkinson Bridges Bruce Atkinson
Velez Meza Roy Vincent York Hodge Villa Abbott Allison Tapia Gates Chase Sosa Sweeney Farrell Wyatt Dalton Horn Barron
Phelps Yu Dickerson Heath Foley Atkins Mathews Bonilla Acevedo Benitez Zavala Hensley Glenn Cisneros Harrell Shields
Rubio Huffman Choi Boyer Garrison Arroyo Bond Kane Hancock Callahan Dillon Cline Wiggins Grimes Arellano Melton Oneill
Savage Ho Beltran Pitts Parrish Ponce Rich Booth Koch Golden Ware Brennan McDowell Marks Cantu Humphrey Baxter Sawyer
Clay Tanner Hutchinson Kaur Berg Wiley Gilmore Russo Villegas Hobbs Keith Wilkerson Ahmed Beard McClain Montes Mata
Rosario Vang Walter Henson Oneal Mosley McClure Beasley Stephenson Snow Huerta Preston Vance Barry Johns Eaton Blackwell
Dyer Prince Macdonald Solomon Guevara Stafford English Hurst Woodard Cortes Shannon Kemp Nolan McCullough Merritt Murillo
Moon Salgado Strong Kline Cordova Barajas Roach Rosas Winters Jacobson Lester Knox Bullock Kerr Leach Meadows Orr Davila
Whitehead Pruitt Kent Conway McKee Barr David Dejesus Marin Berger McIntyre Blankenship Gaines Palacios Cuevas Bartlett
Durham Dorsey McCall Odonnell Stein Browning Stout Lowery Sloan McLean Hendricks Calhoun Sexton Chung Gentry Hull Duarte
Ellison Nielsen Gillespie Buck Middleton Sellers Leblanc Esparza Hardin Bradshaw McIntosh Howe Livingston Frost Glass
Morse Knapp Herman Stark Bravo Noble Spears Weeks Corona Frederick Buckley McFarland Hebert Enriquez Hickman Quintero
Randolph Schaefer Walls Trejo House Reilly Pennington Michael Conrad Giles Benjamin Crosby Fitzpatrick Donovan Mays
Mahoney Valentine Raymond Medrano Hahn McMillan Small Bentley Felix Peck Lucero Boyle Hanna Pace Rush Hurley Harding
McConnell Bernal Nava Ayers Everett Ventura Avery Pugh Mayer Bender Shepard McMahon Landry Case Sampson Moses Magana
Blackburn Dunlap Gould Duffy Vaughan Herring McKay Espinosa Rivers Farley Bernard Ashley Friedman Potts Truong Costa
Correa Blevins Nixon Clements Fry Delarosa Best Benton Lugo Portillo Dougherty Crane Haley Phan Villalobos Blanchard
Horne Finley Quintana Lynn Esquivel Bean Dodson Mullen Xiong Hayden Cano Levy Huber Richmond Moyer Lim Frye Sheppard
McCarty Avalos Booker Waller Parra Woodward Jaramillo Krueger Rasmussen Brandt Peralta Donaldson Stuart Faulkner Maynard
Galindo Coffey Estes Sanford Burch Maddox Vo Oconnell Vu Andersen Spence McPherson Church Schmitt Stanton Leal Cherry
Compton Dudley Sierra Pollard Alfaro Hester Proctor Lu Hinton Novak Good Madden McCann Terrell Jarvis Dickson Reyna
Cantrell Mayo Branch Hendrix Rollins Rowland Whitney Duke Odom Daugherty Travis Tang Archer`.split(/\s+/)
const STREETS =
  `Main Oak Pine Maple Cedar Elm Washington Lake Hill Park Walnut Sunset Lincoln Jackson Church River Highland
Willow Ridge Spring Meadow Forest Jefferson Madison Franklin Chestnut Center Adams Cherry Hickory Dogwood Magnolia Laurel
Sycamore Birch Aspen Juniper Poplar Spruce Ash Holly Valley Prospect Summit Mill Orchard Fairview Grove Bridge Broad
Water High School College Union Market Liberty Harbor Bay Brook Creek Forest Glen Heather Ivy Jasper Kingston Lexington
Monroe Newport Oxford Piedmont Quincy Riverside Sherwood Trinity University Vernon Wellington Windsor Yorktown Beacon
Cambridge Dover Essex Hamilton Hampton Hartford Lafayette Marion Pleasant Railroad Rosewood Sheridan Stonegate`.split(
    /\s+/,
  )
const SUFFIXES = ['St', 'Ave', 'Rd', 'Dr', 'Ln', 'Ct', 'Blvd', 'Way', 'Pl', 'Ter', 'Cir', 'Pkwy']
const LONG_SUFFIX: Record<string, string> = {
  St: 'Street',
  Ave: 'Avenue',
  Rd: 'Road',
  Dr: 'Drive',
  Ln: 'Lane',
  Ct: 'Court',
  Blvd: 'Boulevard',
  Pl: 'Place',
  Ter: 'Terrace',
  Cir: 'Circle',
  Pkwy: 'Parkway',
}

// deterministic (same seed, same queries every run)
const rand = createRandom(20261121)
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!

/** One typo: a dropped, doubled, swapped or replaced letter (not the first). */
function typo(word: string): string {
  if (word.length < 4) return word
  const i = 1 + Math.floor(rand() * (word.length - 2))
  switch (Math.floor(rand() * 4)) {
    case 0:
      return word.slice(0, i) + word.slice(i + 1)
    case 1:
      return word.slice(0, i) + word[i] + word.slice(i)
    case 2:
      return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2)
    default:
      return word.slice(0, i) + 'aeiou'[Math.floor(rand() * 5)] + word.slice(i + 1)
  }
}

/** The p-th percentile (nearest rank) of `values`. */
export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN
}

/** Milliseconds `work` takes. */
export async function time<T>(work: () => Promise<T>): Promise<number> {
  const start = performance.now()
  await work()
  return performance.now() - start
}

/** A time-stamped line on stdout. */
export function log(line: string) {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`)
}

// ---------------------------------------------------------------------------------------------------------------
// A throwaway stack with only the search-agents function
// ---------------------------------------------------------------------------------------------------------------

/**
 * A throwaway stack (its own embedded PostgreSQL, free ports, fresh keys) with only the search-agents function under
 * Deno behind a /functions/v1 gateway hop like the stack's; `stop()` ends all of it.
 */
export async function startBenchStack() {
  // the one throwaway stack without functions; only search-agents boots below, beside it
  const stack = await startThrowawayStack({ prefix: 'agent-insight-search-bench-', seed: false, functions: false })
  const { dataDir, jwtSecret } = stack
  const keys = { anonKey: stack.anonKey, serviceRoleKey: stack.serviceRoleKey }
  // only search-agents (and the shared code it imports), copied so later edits do not leak into the run
  const functionsDir = path.join(dataDir, 'functions')
  // deno.json: the import map (bare npm names, @shared/) the function resolves its imports with
  for (const entry of ['search-agents', '_shared', 'deno.json']) {
    fs.cpSync(path.join(rootDir, 'supabase/functions', entry), path.join(functionsDir, entry), { recursive: true })
  }
  let functions: Awaited<ReturnType<typeof startFunctions>> | null = null
  let gateway: ReturnType<typeof serve> | null = null
  const stop = async () => {
    if (gateway) await new Promise<void>((resolve) => gateway!.close(() => resolve()))
    await functions?.stop()
    await stack.stop()
  }
  try {
    functions = await startFunctions({
      sources: [{ functionsDir, configToml: path.join(rootDir, 'supabase/config.toml') }],
      env: {
        SUPABASE_URL: stack.apiUrl,
        SUPABASE_ANON_KEY: keys.anonKey,
        SUPABASE_SERVICE_ROLE_KEY: keys.serviceRoleKey,
        SUPABASE_DB_URL: stack.databaseUrl,
        SITE_URL: 'http://localhost:4321',
        REPORT_REQUEST_HMAC_SECRET: 'bench-rate-limit-key-0123456789abcdef0123456789',
        // the bench drives thousands of searches a minute from one address: the per-IP limit is not what it measures
        SEARCH_RATE_LIMIT_PER_MINUTE: '100000',
      },
      jwtSecret,
      denoDir: path.join(dataDir, 'deno'),
      log: (line) => log(line),
    })
    // the /functions/v1 gateway hop, as in the stack (verify_jwt honoured by the runtime)
    const port = await freePort()
    const runtime = functions
    gateway = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const server = serve({ port, hostname: '127.0.0.1', fetch: (request: Request) => runtime.fetch(request) }, () =>
        resolve(server),
      )
    })
    return {
      stack,
      keys,
      functionsUrl: `http://127.0.0.1:${port}/functions/v1`,
      functionPort: runtime.ports()['search-agents']!,
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Data
// ---------------------------------------------------------------------------------------------------------------

/**
 * How much data to generate: agents, closed sales (0 = names only), queries per search type, and `rareSurnames`: how
 * many distinct surnames of a long tail half the agents draw from (0 or absent: every agent has a common surname).
 */
/** Wall seconds of the bench's two metrics refreshes: the first over fresh data, the second over unchanged data. */
export interface RefreshTimes {
  first: number
  /** A full refresh after the daily case, over the same sales (every figure recomputed, nothing written), seconds. */
  unchanged: number
  /** agents rows the first refresh changed. */
  agentsUpdated: number
  /**
   * The daily case: one new closed sale for each of 1 % of the agents, in one statement as an import applies them,
   * then the refresh (incremental): seconds, the kind it ran, the agents it recomputed and the agents rows it changed.
   */
  daily: {
    seconds: number
    kind: string
    agentsRecomputed: number
    agentsUpdated: number
    newSales: number
    /** The insert statement of the new sales (its triggers note the changes and give pages new versions), seconds. */
    insertSeconds: number
    /** The city pages the refresh marked stale, ranked after it (off the path to live): how many, seconds. */
    cityRanking: { cities: number; seconds: number }
  }
  /** VACUUM ANALYZE after those refreshes, before the searches are timed (what autovacuum would do), seconds. */
  vacuumAfter: number
}

export interface BenchSize {
  agents: number
  sales: number
  queries: number
  rareSurnames?: number
  /**
   * A Redfin ZIP market tracker CSV to take the ZIPs from (default: supabase/data/redfin-zip-subset.csv, 366 ZIPs).
   * The national runs use the 24,585-ZIP file beside the project (/work/shared/data/redfin-zip-market-2025-09.csv).
   */
  zipsCsv?: string
}

/** Closed sales generated per statement: bounds the transition tables the properties triggers see. */
const SALES_PER_STATEMENT = 1_000_000

/**
 * `count` distinct surname-like tokens that are not in LAST_NAMES: the head of one common surname joined to the tail
 * of another ("Gonz" + "ley"), 4-12 letters, from a fixed seed so every run gets the same list. They stand in for the
 * long tail of real surnames (the 2010 Census counted 162,253 surnames held by 100 or more people, and the 1,000 most
 * common cover only about 41 % of the population): a national dictionary of name tokens has that many, and the
 * trigram neighbours of a typo are drawn from it, so a bench whose names come from a few hundred surnames times the
 * typo path on a dictionary a hundred times too small. Built from real surnames so their trigrams are as common as
 * real ones. @throws when the heads and tails cannot make `count` distinct tokens.
 */
export function rareSurnames(count: number): string[] {
  const random = createRandom('bench-rare-surnames')
  const common = new Set(LAST_NAMES.map((name) => name.toLowerCase()))
  const heads = [
    ...new Set(LAST_NAMES.flatMap((name) => [2, 3, 4].filter((n) => n < name.length).map((n) => name.slice(0, n)))),
  ]
  const tails = [
    ...new Set(
      LAST_NAMES.flatMap((name) =>
        [2, 3, 4, 5].filter((n) => n < name.length).map((n) => name.slice(-n).toLowerCase()),
      ),
    ),
  ]
  if (heads.length * tails.length < count * 2)
    throw new Error(`rareSurnames: ${heads.length} heads x ${tails.length} tails cannot make ${count} surnames`)
  const made = new Set<string>()
  while (made.size < count) {
    const name = heads[Math.floor(random() * heads.length)]! + tails[Math.floor(random() * tails.length)]!
    if (name.length >= 4 && name.length <= 12 && !common.has(name.toLowerCase())) made.add(name)
  }
  return [...made]
}

/**
 * Loads zip_market_benchmarks from the Redfin subset, then generates `size.agents` agents (common US first and last
 * names; with `size.rareSurnames`, half of them take a surname from that long tail instead) and `size.sales` closed
 * sales with generate_series, secondary indexes dropped during the load and rebuilt after, runs
 * refresh_agent_metrics() (the first refresh: every agent's figures, ZIP summary and page version are written), VACUUM
 * ANALYZE, then the daily case: a new sale for 1 % of the agents and the refresh that follows (incremental: the agents
 * those sales reach), then a full refresh over the same sales (every figure recomputed, only changed rows written:
 * nothing), then VACUUM ANALYZE again so the searches are timed on settled tables. sales = 0: names only (no sales, no
 * refresh). Returns the refreshes' wall seconds (null when names only).
 */
export async function loadData(db: pg.Client, size: BenchSize): Promise<RefreshTimes | null> {
  const { agents: AGENTS, sales: SALES } = size
  const NAMES_ONLY = SALES === 0
  const csv = path.join(os.tmpdir(), `redfin-zips-${process.pid}.csv`)
  fs.copyFileSync(size.zipsCsv ?? path.join(rootDir, 'supabase/data/redfin-zip-subset.csv'), csv) // rejects land beside the copy
  const zips = await loadZipBenchmarks(db, csv)
  fs.rmSync(csv, { force: true })
  fs.rmSync(`${csv}.rejects.csv`, { force: true })
  log(`zip_market_benchmarks: ${zips.inserted} ZIPs (${zips.rejected} rejected)`)

  // bulk load without secondary indexes, then rebuild them: much faster than maintaining them row by row
  const indexes = (
    await db.query<{ name: string; definition: string }>(
      `select i.indexname as name, i.indexdef as definition
       from pg_indexes i
       where i.schemaname = 'public' and i.tablename in ('agents', 'properties', 'transaction_sides')
         and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
    )
  ).rows
  for (const index of indexes) await db.query(`drop index public.${index.name}`)
  // the name-token postings the agents' insert trigger writes: their secondary indexes are rebuilt after the load too
  const postingIndexes = (
    await db.query<{ name: string; definition: string }>(
      `select i.indexname as name, i.indexdef as definition
       from pg_indexes i
       where i.schemaname = 'public' and i.tablename in ('agent_name_postings', 'agent_name_tokens')
         and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
    )
  ).rows
  for (const index of postingIndexes) await db.query(`drop index public.${index.name}`)
  indexes.push(...postingIndexes)

  await db.query(`select setseed(0.42)`)
  await db.query(`create temporary table bench_zips as
    select row_number() over (order by zip_code)::integer as ix, zip_code, city, state,
           latitude::double precision as latitude, longitude::double precision as longitude,
           coalesce(median_sale_price, 450000)::double precision as median_price
    from public.zip_market_benchmarks`)
  const zipCount = (await db.query<{ n: number }>(`select count(*)::integer as n from bench_zips`)).rows[0]!.n

  let started = performance.now()
  await db.query(
    `create temporary table bench_agents as
     select g as ix, gen_random_uuid() as id,
            ($1::text[])[1 + floor(random() * cardinality($1::text[]))::integer] || ' '
              || case when cardinality($5::text[]) > 0 and random() < 0.5
                      then ($5::text[])[1 + floor(random() * cardinality($5::text[]))::integer]
                      else ($2::text[])[1 + floor(random() * cardinality($2::text[]))::integer] end as name,
            1 + floor(power(random(), 1.15) * $4)::integer as zip_ix
     from generate_series(1, $3::integer) g`,
    [FIRST_NAMES, LAST_NAMES, AGENTS, zipCount, rareSurnames(size.rareSurnames ?? 0)],
  )
  await db.query(`alter table bench_agents add primary key (ix)`)
  await db.query(
    `insert into public.agents (id, name, mls_id, brokerage, license_number, years_experience, rating, review_count,
                                phone, city, state, zip_code)
     select a.id, a.name, 'BENCH' || a.ix, (array['Keller Williams','RE/MAX','Coldwell Banker','Compass','Century 21','eXp Realty','Redfin','Berkshire Hathaway HomeServices'])[1 + a.ix % 8],
            'LIC' || a.ix, (a.ix % 30), round((3 + random() * 2)::numeric, 1), (a.ix % 120),
            '555-' || lpad((a.ix % 10000)::text, 4, '0'), z.city, z.state, z.zip_code
     from bench_agents a join bench_zips z on z.ix = a.zip_ix`,
  )
  log(
    `agents: ${AGENTS.toLocaleString('en-US')} (and their name-token postings) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  )
  const dictionary = (
    await db.query<{ tokens: number; deletions: number; size: string }>(
      `select (select count(*)::integer from public.agent_name_tokens) as tokens,
              (select count(*)::integer from public.agent_name_token_deletions) as deletions,
              pg_size_pretty(pg_total_relation_size('public.agent_name_token_deletions')) as size`,
    )
  ).rows[0]!
  log(
    `name dictionary: ${dictionary.tokens.toLocaleString('en-US')} distinct tokens; typo index (agent_name_token_deletions): ` +
      `${dictionary.deletions.toLocaleString('en-US')} rows, ${dictionary.size} with its index`,
  )

  if (NAMES_ONLY) {
    started = performance.now()
    await db.query(`set maintenance_work_mem = '512MB'`)
    for (const index of indexes) await db.query(index.definition)
    log(`${indexes.length} indexes rebuilt in ${((performance.now() - started) / 1000).toFixed(1)} s`)
    started = performance.now()
    await db.query(`vacuum (analyze) public.agents, public.agent_name_postings, public.agent_name_tokens`)
    log(
      `VACUUM ANALYZE in ${((performance.now() - started) / 1000).toFixed(1)} s (names only: no sales, no metrics refresh)`,
    )
    return null
  }

  started = performance.now()
  // in statements of SALES_PER_STATEMENT rows: each fires the properties triggers (transaction sides, page versions)
  // once, with that statement's rows. Both sides, as an MLS feed has them: a buyer agent on 85 % of sales, a co-list
  // agent on 10 % (the sides follow from these fields through the properties triggers)
  for (let first = 1; first <= SALES; first += SALES_PER_STATEMENT) {
    const last = Math.min(SALES, first + SALES_PER_STATEMENT - 1)
    await db.query(
      `insert into public.properties (agent_id, list_agent_mls_id, buyer_agent_mls_id, co_list_agent_mls_id, address,
                                      city, state, zip_code, list_price, sale_price, sale_date, days_on_market,
                                      bedrooms, bathrooms, square_feet, property_type, standard_status, latitude,
                                      longitude)
       select a.id, 'BENCH' || a.ix,
              case when random() < 0.85 then 'BENCH' || (1 + floor(power(random(), 1.25) * $4)::integer) end,
              case when random() < 0.10 then 'BENCH' || (1 + floor(power(random(), 1.25) * $4)::integer) end,
              (1 + floor(power(random(), 2) * 9999))::integer || ' ' || ($1::text[])[1 + floor(random() * cardinality($1::text[]))::integer]
                || ' ' || ($2::text[])[1 + floor(random() * cardinality($2::text[]))::integer],
              z.city, z.state, z.zip_code,
              round((z.median_price * s.factor)::numeric, -3),
              round((z.median_price * s.factor * (0.94 + random() * 0.1))::numeric, -3),
              current_date - floor(random() * 900)::integer, floor(random() * 120)::integer,
              1 + floor(random() * 5)::integer, 1 + floor(random() * 4)::integer, 800 + floor(random() * 3200)::integer,
              'Single Family Residential', 'Closed',
              z.latitude + (random() - 0.5) * 0.04, z.longitude + (random() - 0.5) * 0.04
       from (
         select g, 1 + floor(power(random(), 1.25) * $4)::integer as agent_ix, random() < 0.8 as home,
                1 + floor(random() * $5)::integer as other_zip_ix, exp((random() - 0.5) * 1.2) as factor
         from generate_series($3::integer, $6::integer) g
       ) s
       join bench_agents a on a.ix = s.agent_ix
       join bench_zips z on z.ix = case when s.home then a.zip_ix else s.other_zip_ix end`,
      [STREETS, SUFFIXES, first, AGENTS, zipCount, last],
    )
    if (SALES > SALES_PER_STATEMENT)
      log(`  ${last.toLocaleString('en-US')} of ${SALES.toLocaleString('en-US')} closed sales`)
  }
  log(`closed sales: ${SALES.toLocaleString('en-US')} in ${((performance.now() - started) / 1000).toFixed(1)} s`)

  started = performance.now()
  await db.query(`set maintenance_work_mem = '512MB'`)
  for (const index of indexes) await db.query(index.definition)
  log(`${indexes.length} indexes rebuilt in ${((performance.now() - started) / 1000).toFixed(1)} s`)

  // the city pages' first 25 is ranked after the site is live (pg_cron's rank-stale-city-pages every minute): the bench
  // ranks them itself after each refresh, timed apart, so the job never runs beside a timed step
  await db.query(`select cron.unschedule('rank-stale-city-pages')`)
  const rankCities = async () => {
    const begun = performance.now()
    const { rows } = await db.query<{ n: number }>(`select private.rank_stale_city_pages(wait => true) as n`)
    return { cities: rows[0]!.n, seconds: (performance.now() - begun) / 1000 }
  }
  const refreshSql = `select metrics_window_start::text, metrics_window_end::text, agents_updated from public.refresh_agent_metrics()`
  started = performance.now()
  const refresh = (await db.query(refreshSql)).rows[0]
  const first = (performance.now() - started) / 1000
  log(
    `refresh_agent_metrics(): window ${refresh.metrics_window_start}..${refresh.metrics_window_end}, ${refresh.agents_updated} agents, ${first.toFixed(1)} s`,
  )
  const firstCities = await rankCities()
  log(`after it, off the path to live: ${firstCities.cities} city pages ranked in ${firstCities.seconds.toFixed(1)} s`)
  started = performance.now()
  await db.query(
    `vacuum (analyze) public.agents, public.properties, public.transaction_sides, public.zip_market_benchmarks, public.agent_name_postings, public.agent_name_tokens, public.agent_zip_sales, public.agent_figures`,
  )
  log(`VACUUM ANALYZE in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  // the daily case: a new closed sale for every hundredth agent, dated the day after the newest close date as a live
  // feed's day is (that day itself when the next would start a new month: the window, whole months, moves then), in
  // one statement as an import applies its rows, then the refresh that follows it
  started = performance.now()
  const inserted = await db.query(
    `insert into public.properties (agent_id, list_agent_mls_id, address, city, state, zip_code, list_price, sale_price,
                                    sale_date, days_on_market, property_type, standard_status)
     select a.id, 'BENCH' || a.ix, a.ix || ' Daily Import St', z.city, z.state, z.zip_code, round(z.median_price::numeric, -3),
            round((z.median_price * 1.01)::numeric, -3), d.day, 21, 'Single Family Residential', 'Closed'
     from bench_agents a join bench_zips z on z.ix = a.zip_ix
     cross join (select case when extract(day from n.newest + 1) = 1 then n.newest else n.newest + 1 end as day
                   from (select max(sale_date) as newest from public.properties) n) d
     where a.ix % 100 = 0`,
  )
  const insertSeconds = (performance.now() - started) / 1000
  started = performance.now()
  const daily = (
    await db.query<{ agents_updated: number; refresh_kind: string; agents_recomputed: number }>(
      `select agents_updated, refresh_kind, agents_recomputed from public.refresh_agent_metrics()`,
    )
  ).rows[0]!
  const dailySeconds = (performance.now() - started) / 1000
  const dailyCities = await rankCities()
  log(
    `a daily change: ${inserted.rowCount} new sales (1 % of the agents) in ${insertSeconds.toFixed(1)} s; refresh_agent_metrics(): ${daily.refresh_kind}, ${daily.agents_recomputed} agents recomputed, ${daily.agents_updated} agents changed, ${dailySeconds.toFixed(1)} s; after it, off the path to live: ${dailyCities.cities} city pages ranked in ${dailyCities.seconds.toFixed(1)} s`,
  )
  started = performance.now()
  const again = (await db.query(`select agents_updated from public.refresh_agent_metrics(full_refresh => true)`))
    .rows[0]
  const unchanged = (performance.now() - started) / 1000
  await rankCities()
  log(
    `refresh_agent_metrics(full_refresh => true) again: ${again.agents_updated} agents changed, ${unchanged.toFixed(1)} s`,
  )
  // the refreshes leave dead rows behind (every changed figure is a new row version): the searches are timed on the
  // tables as autovacuum leaves them, not in between
  started = performance.now()
  await db.query(
    `vacuum (analyze) public.agents, public.properties, public.transaction_sides, public.agent_zip_sales, public.agent_figures, public.zip_sales_coverage`,
  )
  const vacuumAfter = (performance.now() - started) / 1000
  log(`VACUUM ANALYZE after the refreshes in ${vacuumAfter.toFixed(1)} s`)

  return {
    first,
    unchanged,
    agentsUpdated: refresh.agents_updated,
    daily: {
      seconds: dailySeconds,
      kind: daily.refresh_kind,
      agentsRecomputed: daily.agents_recomputed,
      agentsUpdated: daily.agents_updated,
      newSales: inserted.rowCount ?? 0,
      insertSeconds,
      cityRanking: dailyCities,
    },
    vacuumAfter,
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------------------------------

export interface BenchQuery {
  type: SearchType
  query: string
  /** What the naive scan looks for (the street part of an address). */
  naive: string
}

/** Percent of a table's pages to sample for about 20x `wanted` rows (0.1-100), so small tables still yield enough. */
const samplePercent = (wanted: number, rows: number) =>
  Math.min(100, Math.max(0.1, (2000 * wanted) / Math.max(rows, 1)))

/**
 * `size.queries` varied queries per search type from the loaded data: agent names (full, last name, a typo in either,
 * a first-name prefix, first name + last-name prefix), ZIPs, and addresses (exact, long suffix with the place, a
 * typo, an unknown street, "City, ST", nonsense). Names only (sales 0): agent queries alone.
 */
export async function buildQueries(db: pg.Client, size: BenchSize): Promise<BenchQuery[]> {
  const { queries: QUERIES } = size
  const NAMES_ONLY = size.sales === 0
  const names = (
    await db.query<{ name: string }>(`select name from public.agents tablesample system ($2) limit $1`, [
      QUERIES,
      samplePercent(QUERIES, size.agents),
    ])
  ).rows.map((row) => row.name)
  const agent: BenchQuery[] = Array.from({ length: QUERIES }, (_, i) => {
    const [first, last] = names[i % names.length]!.split(' ') as [string, string]
    const query = [
      `${first} ${last}`,
      last,
      `${typo(first)} ${last}`,
      `${first} ${typo(last)}`,
      first.slice(0, Math.max(3, first.length - 2)),
      `${first} ${last.slice(0, 3)}`,
    ][i % 6]!
    return { type: 'agent', query, naive: query }
  })
  if (NAMES_ONLY) return agent

  const zipRows = (
    await db.query<{ zip_code: string; city: string | null; state: string | null }>(
      `select zip_code, city, state from public.zip_market_benchmarks order by zip_code`,
    )
  ).rows
  const zipcode: BenchQuery[] = Array.from({ length: QUERIES }, () => {
    const zip = pick(zipRows).zip_code
    return { type: 'zipcode', query: zip, naive: zip }
  })

  const properties = (
    await db.query<{ address: string; city: string | null; state: string | null; zip_code: string }>(
      `select address, city, state, zip_code from public.properties tablesample system ($2) limit $1`,
      [QUERIES, samplePercent(QUERIES, size.sales)],
    )
  ).rows
  const cities = zipRows.filter((row) => row.city && row.state)
  const address: BenchQuery[] = Array.from({ length: QUERIES }, (_, i) => {
    const property = properties[i % properties.length]!
    const [number, street, suffix] = property.address.split(' ') as [string, string, string]
    const place = [property.city, [property.state, property.zip_code].filter(Boolean).join(' ')]
      .filter(Boolean)
      .join(', ')
    const city = pick(cities)
    const query = [
      `${number} ${street} ${suffix}`,
      `${number} ${street} ${LONG_SUFFIX[suffix] ?? suffix}, ${place}`,
      `${number} ${typo(street)} ${suffix}, ${place}`,
      `${number} Nonexistent Way, ${place}`,
      // a street that is nowhere, with a city and state but no ZIP: the closest-street step reads the state's sales
      `${number} Nonexistent Way, ${[property.city, property.state].filter(Boolean).join(', ')}`,
      `${city.city}, ${city.state}`,
      `Qwxz Lane, Nowhere, ZZ`,
    ][i % 7]!
    return { type: 'address', query, naive: query.split(',')[0]! }
  })
  return [...agent, ...zipcode, ...address]
}
