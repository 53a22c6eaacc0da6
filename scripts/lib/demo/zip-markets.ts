/**
 * The ZIP markets the demo data is calibrated on: supabase/data/redfin-zip-subset.csv (Redfin Data Center ZIP code
 * market tracker, September 2025), validated with the same schema as the benchmark loader. The Boston-area rows and
 * five Phoenix-area rows of that file carry no city or coordinates, so an approximate town and centroid for those
 * ZIPs is kept here (public USPS town names; centroids rounded to about 1 km, good enough for demo pins).
 */
import path from 'node:path'
import { rootDir } from '../env.ts'
import { readRecords } from '../import/read-file.ts'
import { RedfinZipRowSchema } from '../import/zip-benchmarks.ts'
import { cleanNumber } from '../import/values.ts'

export const defaultZipFile = path.join(rootDir, 'supabase/data/redfin-zip-subset.csv')

/** One ZIP's market, as the generator uses it. Prices in USD, saleToList a FRACTION (1.02 = 2% over list), DOM in days. */
export interface ZipMarket {
  zip: string
  city: string
  state: string
  metro: string
  latitude: number
  longitude: number
  medianSalePrice: number
  /** Average sale / list price, fraction. */
  saleToList: number
  medianDom: number
  /** Homes sold in the month; the weight of the ZIP in the sales volume. */
  homesSold: number
  /** Median price per square foot, USD (drives LivingArea). */
  pricePerSqft: number
  /** Last day of the month the figures describe (ISO date). */
  periodEnd: string
}

/** [town, latitude, longitude] for the ZIPs the Redfin subset leaves without a city or coordinates. */
const places: Record<string, [string, number, number]> = {
  '01450': ['Groton', 42.61, -71.57],
  '01701': ['Framingham', 42.32, -71.44],
  '01702': ['Framingham', 42.28, -71.43],
  '01730': ['Bedford', 42.49, -71.28],
  '01746': ['Holliston', 42.2, -71.44],
  '01748': ['Hopkinton', 42.23, -71.52],
  '01801': ['Woburn', 42.48, -71.15],
  '01803': ['Burlington', 42.5, -71.2],
  '01826': ['Dracut', 42.68, -71.3],
  '01832': ['Haverhill', 42.79, -71.13],
  '01833': ['Georgetown', 42.73, -70.98],
  '01835': ['Haverhill', 42.76, -71.09],
  '01844': ['Methuen', 42.73, -71.18],
  '01851': ['Lowell', 42.63, -71.33],
  '01864': ['North Reading', 42.58, -71.09],
  '01867': ['Reading', 42.53, -71.11],
  '01880': ['Wakefield', 42.5, -71.07],
  '01886': ['Westford', 42.59, -71.44],
  '01890': ['Winchester', 42.45, -71.14],
  '01904': ['Lynn', 42.49, -70.97],
  '01907': ['Swampscott', 42.47, -70.91],
  '01938': ['Ipswich', 42.68, -70.84],
  '01960': ['Peabody', 42.53, -70.97],
  '01970': ['Salem', 42.51, -70.9],
  '02019': ['Bellingham', 42.09, -71.47],
  '02026': ['Dedham', 42.24, -71.17],
  '02045': ['Hull', 42.29, -70.88],
  '02056': ['Norfolk', 42.12, -71.33],
  '02066': ['Scituate', 42.2, -70.76],
  '02067': ['Sharon', 42.11, -71.18],
  '02081': ['Walpole', 42.14, -71.25],
  '02090': ['Westwood', 42.21, -71.22],
  '02093': ['Wrentham', 42.06, -71.35],
  '02114': ['Boston', 42.361, -71.067],
  '02115': ['Boston', 42.343, -71.092],
  '02116': ['Boston', 42.35, -71.076],
  '02128': ['East Boston', 42.37, -71.02],
  '02132': ['West Roxbury', 42.28, -71.16],
  '02136': ['Hyde Park', 42.25, -71.13],
  '02143': ['Somerville', 42.38, -71.1],
  '02144': ['Somerville', 42.4, -71.12],
  '02145': ['Somerville', 42.39, -71.09],
  '02148': ['Malden', 42.43, -71.06],
  '02151': ['Revere', 42.42, -71.0],
  '02155': ['Medford', 42.42, -71.11],
  '02176': ['Melrose', 42.46, -71.06],
  '02186': ['Milton', 42.24, -71.08],
  '02190': ['South Weymouth', 42.17, -70.95],
  '02302': ['Brockton', 42.08, -71.0],
  '02324': ['Bridgewater', 41.98, -70.97],
  '02332': ['Duxbury', 42.04, -70.7],
  '02333': ['East Bridgewater', 42.03, -70.94],
  '02339': ['Hanover', 42.12, -70.85],
  '02347': ['Lakeville', 41.84, -70.96],
  '02359': ['Pembroke', 42.06, -70.8],
  '02360': ['Plymouth', 41.9, -70.63],
  '02364': ['Kingston', 41.99, -70.73],
  '02370': ['Rockland', 42.13, -70.91],
  '02420': ['Lexington', 42.46, -71.22],
  '02446': ['Brookline', 42.34, -71.12],
  '02453': ['Waltham', 42.37, -71.24],
  '02461': ['Newton', 42.32, -71.21],
  '02482': ['Wellesley', 42.3, -71.29],
  '02492': ['Needham', 42.28, -71.24],
  '02494': ['Needham', 42.3, -71.23],
  '02571': ['Wareham', 41.76, -70.72],
  '85123': ['Arizona City', 32.76, -111.67],
  '85144': ['San Tan Valley', 33.19, -111.54],
  '85220': ['Apache Junction', 33.41, -111.57],
  '85228': ['Coolidge', 32.98, -111.52],
  '85238': ['Maricopa', 33.06, -112.05],
}

/**
 * Reads and validates the Redfin ZIP file. ZIPs without a median sale price, sale-to-list ratio, median DOM or
 * homes sold cannot calibrate anything and are skipped, as are ZIPs with no known place.
 * @throws Error when no usable ZIP remains.
 */
export async function readZipMarkets(file = defaultZipFile): Promise<ZipMarket[]> {
  const markets: ZipMarket[] = []
  for await (const { record } of readRecords(file)) {
    if (!record) continue
    const parsed = RedfinZipRowSchema.safeParse(record)
    if (!parsed.success) continue
    const row = parsed.data
    const place = places[row.zip_code]
    const latitude = row.latitude ?? place?.[1]
    const longitude = row.longitude ?? place?.[2]
    const city = row.city ?? place?.[0]
    if (!row.median_sale_price || !row.avg_sale_to_list_ratio || row.median_dom === undefined || !row.homes_sold)
      continue
    if (latitude === undefined || longitude === undefined || !city || !row.state || !row.parent_metro) continue
    const ppsf = cleanNumber(record.median_ppsf)
    markets.push({
      zip: row.zip_code,
      city,
      state: row.state,
      metro: row.parent_metro,
      latitude,
      longitude,
      medianSalePrice: row.median_sale_price,
      saleToList: row.avg_sale_to_list_ratio,
      medianDom: Math.max(1, row.median_dom),
      homesSold: row.homes_sold,
      pricePerSqft: typeof ppsf === 'number' && ppsf > 20 ? ppsf : 250,
      periodEnd: row.period_end,
    })
  }
  if (markets.length === 0)
    throw new Error(
      `${file}: no usable ZIP rows (need median_sale_price, avg_sale_to_list_ratio, median_dom, homes_sold and a place)`,
    )
  // a stable order whatever the file's order, so a seed always means the same data
  return markets.sort((a, b) => a.zip.localeCompare(b.zip))
}

/** Distance between two ZIP centroids in km (equirectangular; exact enough inside one metro). */
export function distanceKm(
  a: Pick<ZipMarket, 'latitude' | 'longitude'>,
  b: Pick<ZipMarket, 'latitude' | 'longitude'>,
): number {
  const meanLat = ((a.latitude + b.latitude) / 2) * (Math.PI / 180)
  const dx = (b.longitude - a.longitude) * Math.cos(meanLat) * 111.32
  const dy = (b.latitude - a.latitude) * 110.57
  return Math.hypot(dx, dy)
}

/** For each ZIP (by index), the indexes of the `count` nearest other ZIPs of the same metro, nearest first. */
export function nearestNeighbours(markets: ZipMarket[], count: number): number[][] {
  return markets.map((market, i) =>
    markets
      .map((other, j) => ({ j, km: distanceKm(market, other) }))
      .filter(({ j }) => j !== i && markets[j]!.metro === market.metro)
      .sort((a, b) => a.km - b.km || a.j - b.j)
      .slice(0, count)
      .map(({ j }) => j),
  )
}
