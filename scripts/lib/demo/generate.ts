/**
 * Demo data generator: fictional agents (RESO Member records) and their closed sales (RESO Property records),
 * calibrated per ZIP on the Redfin ZIP market figures (see zip-markets.ts), written as CSV files that the real
 * importer then loads. Deterministic: the same options (seed included) give byte-identical files.
 *
 * Calibration (per ZIP of supabase/data/redfin-zip-subset.csv):
 *   - sales volume per ZIP is proportional to Redfin's homes_sold (among the ZIPs some agent works in);
 *   - ClosePrice is log-normal around the ZIP's median sale price (sigma 0.35 on the log);
 *   - ClosePrice / ListPrice is around the ZIP's average sale-to-list (sd about 2.5 points), a little lower for
 *     homes that sat longer;
 *   - DaysOnMarket is log-normal around the ZIP's median DOM (sigma 0.6);
 *   - LivingArea follows from the price and the ZIP's median price per square foot;
 *   - CloseDate is uniform over the 24 months ending at the file's period_end (the metrics window, both ends in).
 * Agents: each works in 1-3 neighbouring ZIPs of one metro (a home ZIP plus its nearest ZIPs), and a log-normal
 * "productivity" weight (sigma 1.0) decides how many of a ZIP's sales go to them, so a few agents are top producers
 * and many have a handful of sales.
 * Sides: every sale has a list agent; about 12 % also a co-list agent (an office mate when the office has one in the
 * metro); about 85 % a buyer agent from the same metro, of which about 3 % of all sales are dual agency (the list
 * agent represents the buyer too) and about 8 % have a co-buyer agent. Listings name agents the way a RESO Web API
 * feed does: by ...AgentKey (= the Member's MemberKey) and ...AgentMlsId, with the offices' keys and names.
 *
 * Synthetic, not derivable from sales and NOT real: agents' rating, review_count, years_experience and bio are made
 * up here (agent-profiles.csv) and written by seed.ts after the import. Names come from @faker-js/faker, e-mails are
 * @example.com, phones are 555-01xx numbers (reserved for fiction), licence numbers are invented.
 */
import { Faker, base, en, en_US } from '@faker-js/faker'
import fs from 'node:fs'
import path from 'node:path'
import { once } from 'node:events'
import { clamp, createRandom, intBetween, logNormal, normal, WeightedPicker, type Random } from './random.ts'
import { nearestNeighbours, readZipMarkets, type ZipMarket } from './zip-markets.ts'

export interface DemoOptions {
  /** Number of agents (RESO Member records). Default 2,000. */
  agents?: number
  /** Average closed sales per agent; total sales = agents x salesPerAgent unless `sales` is given. Default 20. */
  salesPerAgent?: number
  /** Exact number of closed sales (overrides salesPerAgent; the import bench asks for 1,000,000). */
  sales?: number
  /** Seed for names and numbers; the same seed gives the same files. Default 'agent-insight-demo'. */
  seed?: string | number
  /** Prefix of MemberMlsId and ListingKey values, so demo rows never collide with a real feed. Default 'DEMO-'. */
  idPrefix?: string
  /** Directory for members.csv, properties.csv and agent-profiles.csv (created). */
  outDir: string
  /** Redfin ZIP file to calibrate on. Default supabase/data/redfin-zip-subset.csv. */
  zipFile?: string
  /** Progress lines. */
  log?: (line: string) => void
}

export interface DemoFiles {
  members: string
  properties: string
  profiles: string
  agents: number
  sales: number
  /** The Redfin period end the close dates lead up to (ISO date). */
  periodEnd: string
}

/** The RESO Member columns written to members.csv. */
export const memberFields = [
  'MemberKey',
  'MemberMlsId',
  'MemberFirstName',
  'MemberLastName',
  'MemberFullName',
  'MemberEmail',
  'MemberPreferredPhone',
  'MemberStateLicense',
  'OfficeName',
] as const

/** The RESO Property columns written to properties.csv. */
export const propertyFields = [
  'ListingKey',
  'StandardStatus',
  'PropertyType',
  'ListPrice',
  'OriginalListPrice',
  'ClosePrice',
  'ListingContractDate',
  'CloseDate',
  'DaysOnMarket',
  'ListAgentKey',
  'ListAgentMlsId',
  'ListAgentFullName',
  'ListOfficeKey',
  'ListOfficeName',
  'CoListAgentKey',
  'CoListAgentMlsId',
  'CoListOfficeName',
  'BuyerAgentKey',
  'BuyerAgentMlsId',
  'BuyerOfficeKey',
  'BuyerOfficeName',
  'CoBuyerAgentKey',
  'CoBuyerAgentMlsId',
  'CoBuyerOfficeName',
  'StreetNumber',
  'StreetName',
  'City',
  'StateOrProvince',
  'PostalCode',
  'Latitude',
  'Longitude',
  'BedroomsTotal',
  'BathroomsTotalInteger',
  'LivingArea',
  'ModificationTimestamp',
] as const

/** Synthetic agent fields (not RESO) written to agent-profiles.csv. */
export const profileFields = [
  'MemberMlsId',
  'rating',
  'review_count',
  'years_experience',
  'bio',
  'city',
  'state',
  'zip_code',
] as const

/** Telephone area code per metro, for the fictional 555-01xx numbers. */
const areaCodes: Record<string, string> = {
  'Boston, MA': '617',
  'Austin, TX': '512',
  'Denver, CO': '303',
  'Phoenix, AZ': '602',
  'Atlanta, GA': '404',
  'Seattle, WA': '206',
}

interface Agent {
  id: string
  /** RESO MemberKey (what listings name the agent by). */
  key: string
  first: string
  last: string
  name: string
  office: string
  officeKey: string
  metro: number
  zips: number[]
  productivity: number
  sales: number
}

const DAY_MS = 86_400_000

function csvCell(value: string | number | null): string {
  if (value === null) return ''
  const text = String(value)
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** A buffered CSV writer that respects the stream's backpressure (so 2 million rows never sit in memory). */
class CsvWriter {
  private readonly stream: fs.WriteStream
  private buffer: string[] = []
  private size = 0

  constructor(file: string, header: readonly string[]) {
    this.stream = fs.createWriteStream(file)
    this.buffer.push(header.join(',') + '\n')
  }

  async row(values: Array<string | number | null>): Promise<void> {
    const line = values.map(csvCell).join(',') + '\n'
    this.buffer.push(line)
    this.size += line.length
    if (this.size >= 1 << 20) await this.flush()
  }

  private async flush(): Promise<void> {
    const chunk = this.buffer.join('')
    this.buffer = []
    this.size = 0
    if (!this.stream.write(chunk)) await once(this.stream, 'drain')
  }

  async close(): Promise<void> {
    await this.flush()
    await new Promise<void>((resolve, reject) =>
      this.stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
    )
  }
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '')

/**
 * Generates the demo files into `outDir`. Takes about a second per 100,000 sales.
 * @throws Error for a non-positive agent or sales count, or an unreadable ZIP file.
 */
export async function generateDemoData(options: DemoOptions): Promise<DemoFiles> {
  const agentCount = options.agents ?? 2000
  const salesTotal = options.sales ?? agentCount * (options.salesPerAgent ?? 20)
  if (!Number.isInteger(agentCount) || agentCount < 1)
    throw new Error(`agents must be a whole number >= 1, got ${agentCount}`)
  if (!Number.isInteger(salesTotal) || salesTotal < 0)
    throw new Error(`sales must be a whole number >= 0, got ${salesTotal}`)
  const seed = options.seed ?? 'agent-insight-demo'
  const prefix = options.idPrefix ?? 'DEMO-'
  const log = options.log ?? (() => {})

  const markets = await readZipMarkets(options.zipFile)
  const neighbours = nearestNeighbours(markets, 2)
  const metros = [...new Set(markets.map((market) => market.metro))].sort()
  const metroOf = markets.map((market) => metros.indexOf(market.metro))
  const periodEnd = markets.reduce(
    (latest, market) => (market.periodEnd > latest ? market.periodEnd : latest),
    markets[0]!.periodEnd,
  )
  const periodEndMs = Date.parse(`${periodEnd}T00:00:00Z`)
  // the metrics window: the 24 months ending at the period end, both ends inclusive (refresh_agent_metrics)
  const end = new Date(periodEndMs)
  const windowStartMs = Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - 24, end.getUTCDate()) + DAY_MS
  const windowDays = Math.round((periodEndMs - windowStartMs) / DAY_MS) + 1

  const random: Random = createRandom(seed)
  const faker = new Faker({ locale: [en_US, en, base] })
  faker.seed(Math.floor(createRandom(`${seed}:faker`)() * 2 ** 31))

  fs.mkdirSync(options.outDir, { recursive: true })
  const files = {
    members: path.join(options.outDir, 'members.csv'),
    properties: path.join(options.outDir, 'properties.csv'),
    profiles: path.join(options.outDir, 'agent-profiles.csv'),
  }

  // streets per ZIP, drawn once so addresses repeat within a neighbourhood the way real ones do
  const streets = markets.map(() => Array.from({ length: 24 }, () => faker.location.street()))

  // brokerages per metro, sized so an office has about 15 agents; a few large ones get most of them
  const metroWeight = metros.map((_, m) =>
    markets.reduce((sum, market, i) => sum + (metroOf[i] === m ? market.homesSold : 0), 0),
  )
  const metroTotal = metroWeight.reduce((a, b) => a + b, 0)
  const offices = metros.map((_, m) => {
    const count = Math.max(2, Math.ceil((agentCount * metroWeight[m]!) / metroTotal / 15))
    return Array.from({ length: count }, () => `${faker.company.name()} Realty`)
  })
  const officeKeys = offices.map((list, m) => list.map((_, i) => `${prefix}O${m + 1}-${i + 1}`))
  const officePickers = offices.map((list) => new WeightedPicker(list.map((_, i) => 1 / (i + 1))))

  // agents: the first ones cover every ZIP once (when there are enough), the rest land where the sales are
  const zipPicker = new WeightedPicker(markets.map((market) => market.homesSold))
  const agents: Agent[] = []
  const usedEmails = new Set<string>()
  for (let i = 0; i < agentCount; i += 1) {
    const home = agentCount >= markets.length && i < markets.length ? i : zipPicker.pick(random)
    const extra = random() < 0.35 ? 0 : random() < 0.6 ? 1 : 2
    const first = faker.person.firstName()
    const last = faker.person.lastName()
    const metro = metroOf[home]!
    const office = officePickers[metro]!.pick(random)
    agents.push({
      id: `${prefix}A${String(i + 1).padStart(6, '0')}`,
      key: `${prefix}M${String(i + 1).padStart(6, '0')}`,
      first,
      last,
      name: `${first} ${last}`,
      office: offices[metro]![office]!,
      officeKey: officeKeys[metro]![office]!,
      metro,
      zips: [home, ...neighbours[home]!.slice(0, extra)],
      productivity: Math.exp(normal(random)),
      sales: 0,
    })
  }

  const members = new CsvWriter(files.members, memberFields)
  for (const agent of agents) {
    let email = `${slug(agent.first)}.${slug(agent.last)}@example.com`
    if (usedEmails.has(email)) email = `${slug(agent.first)}.${slug(agent.last)}.${slug(agent.id)}@example.com`
    usedEmails.add(email)
    const market = markets[agent.zips[0]!]!
    await members.row([
      agent.key,
      agent.id,
      agent.first,
      agent.last,
      agent.name,
      email,
      `${areaCodes[market.metro] ?? '555'}-555-01${String(intBetween(random, 0, 99)).padStart(2, '0')}`,
      `${market.state}-${String(intBetween(random, 1_000_000, 9_999_999))}`,
      agent.office,
    ])
  }
  await members.close()
  log(`  wrote ${agents.length.toLocaleString('en-US')} Member records to ${files.members}`)

  // who sells in each ZIP: the agent's home ZIP counts fully, a neighbouring ZIP less
  const zipAgents: number[][] = markets.map(() => [])
  const zipAgentWeights: number[][] = markets.map(() => [])
  agents.forEach((agent, a) =>
    agent.zips.forEach((zip, order) => {
      zipAgents[zip]!.push(a)
      zipAgentWeights[zip]!.push(agent.productivity * (order === 0 ? 1 : 0.4))
    }),
  )
  const agentPickers = zipAgents.map((list, zip) =>
    list.length > 0 ? new WeightedPicker(zipAgentWeights[zip]!) : null,
  )
  const saleZipPicker = new WeightedPicker(markets.map((market, zip) => (agentPickers[zip] ? market.homesSold : 0)))
  const metroAgents = metros.map((_, m) => agents.flatMap((agent, a) => (agent.metro === m ? [a] : [])))
  const officeAgents = new Map<string, number[]>()
  agents.forEach((agent, a) => officeAgents.set(agent.officeKey, [...(officeAgents.get(agent.officeKey) ?? []), a]))
  /** Another agent of `agent`'s office when it has one, else of the metro; null when the metro has no other agent. */
  const partnerOf = (agent: Agent): Agent | null => {
    const mates = officeAgents.get(agent.officeKey)!.filter((a) => agents[a] !== agent)
    const pool = mates.length > 0 ? mates : metroAgents[agent.metro]!.filter((a) => agents[a] !== agent)
    return pool.length > 0 ? agents[pool[Math.floor(random() * pool.length)]!]! : null
  }

  const properties = new CsvWriter(files.properties, propertyFields)
  const keyWidth = Math.max(7, String(salesTotal).length)
  for (let s = 0; s < salesTotal; s += 1) {
    const zip = saleZipPicker.pick(random)
    const market: ZipMarket = markets[zip]!
    const a = zipAgents[zip]![agentPickers[zip]!.pick(random)]!
    const agent = agents[a]!
    agent.sales += 1

    const dom = Math.max(1, Math.round(logNormal(random, market.medianDom, 0.6)))
    const ratio = clamp(market.saleToList + 0.025 * normal(random) - 0.01 * Math.log(dom / market.medianDom), 0.8, 1.3)
    const listPrice = Math.max(
      25_000,
      Math.round(logNormal(random, market.medianSalePrice / market.saleToList, 0.35) / 1000) * 1000,
    )
    const closePrice = Math.round((listPrice * ratio) / 500) * 500
    const originalListPrice =
      dom > market.medianDom * 1.5 ? Math.round((listPrice * (1.02 + 0.08 * random())) / 1000) * 1000 : listPrice
    const closeMs = periodEndMs - Math.floor(random() * windowDays) * DAY_MS
    const escrowDays = intBetween(random, 18, 45)
    const livingArea = Math.round(clamp(closePrice / logNormal(random, market.pricePerSqft, 0.18), 400, 15_000))
    const bedrooms = Math.round(clamp(livingArea / 650 + 0.6 * normal(random), 1, 7))
    const bathrooms = Math.round(clamp(bedrooms * 0.6 + 0.5 * normal(random), 1, 6))
    const peers = metroAgents[agent.metro]!
    const coList = random() < 0.12 ? partnerOf(agent) : null
    const buyerDraw = random()
    const buyer =
      buyerDraw < 0.15 || peers.length < 2
        ? null
        : buyerDraw < 0.18
          ? agent
          : agents[peers[Math.floor(random() * peers.length)]!]!
    const coBuyer = buyer && random() < 0.08 / 0.85 ? partnerOf(buyer) : null
    const modifiedMs = closeMs + intBetween(random, 1, 5) * DAY_MS + intBetween(random, 0, 86_399) * 1000

    await properties.row([
      `${prefix}L${String(s + 1).padStart(keyWidth, '0')}`,
      'Closed',
      random() < 0.93 ? 'Residential' : 'Residential Income',
      listPrice,
      originalListPrice,
      closePrice,
      new Date(closeMs - (dom + escrowDays) * DAY_MS).toISOString().slice(0, 10),
      new Date(closeMs).toISOString().slice(0, 10),
      dom,
      agent.key,
      agent.id,
      agent.name,
      agent.officeKey,
      agent.office,
      coList?.key ?? null,
      coList?.id ?? null,
      coList?.office ?? null,
      buyer?.key ?? null,
      buyer?.id ?? null,
      buyer?.officeKey ?? null,
      buyer?.office ?? null,
      coBuyer?.key ?? null,
      coBuyer?.id ?? null,
      coBuyer?.office ?? null,
      intBetween(random, 1, 9999),
      streets[zip]![Math.floor(random() * streets[zip]!.length)]!,
      market.city,
      market.state,
      market.zip,
      (market.latitude + 0.012 * normal(random)).toFixed(6),
      (market.longitude + 0.015 * normal(random)).toFixed(6),
      bedrooms,
      bathrooms,
      livingArea,
      new Date(modifiedMs).toISOString().replace('.000Z', 'Z'),
    ])
    if ((s + 1) % 500_000 === 0) log(`  wrote ${(s + 1).toLocaleString('en-US')} Property records...`)
  }
  await properties.close()
  log(
    `  wrote ${salesTotal.toLocaleString('en-US')} Property records (closed sales up to ${periodEnd}) to ${files.properties}`,
  )

  // synthetic profile fields: reviews and experience loosely follow how busy the agent is
  const profiles = new CsvWriter(files.profiles, profileFields)
  for (const agent of agents) {
    const home = markets[agent.zips[0]!]!
    const reviews = Math.round(agent.sales * (0.2 + 0.6 * random()) + intBetween(random, 0, 4))
    const rating = reviews === 0 ? null : clamp(Math.round((4.5 + 0.28 * normal(random)) * 10) / 10, 3, 5)
    const years = Math.round(clamp(logNormal(random, 7, 0.6) + 2 * Math.log1p(agent.productivity), 1, 40))
    const towns = [...new Set(agent.zips.map((zip) => markets[zip]!.city))]
    const areas = towns.length === 1 ? towns[0]! : `${towns.slice(0, -1).join(', ')} and ${towns.at(-1)}`
    const bios = [
      `${agent.name} helps buyers and sellers in ${areas} with ${agent.office}, drawing on ${years} years in real estate.`,
      `With ${years} years in the business, ${agent.first} ${agent.last} of ${agent.office} knows the ${areas} market street by street.`,
      `${agent.first} ${agent.last} is an agent with ${agent.office} focused on ${areas}, in real estate for ${years} years.`,
    ]
    await profiles.row([
      agent.id,
      rating,
      reviews,
      years,
      bios[Math.floor(random() * bios.length)]!,
      home.city,
      home.state,
      home.zip,
    ])
  }
  await profiles.close()

  return { ...files, agents: agents.length, sales: salesTotal, periodEnd }
}
