/**
 * Seeded randomness for the demo data: a small, fast PRNG (mulberry32) so the same seed gives the same numbers on
 * every machine and Node version, plus the few distributions the generator needs. Pure functions, no I/O.
 */

/** A deterministic source of uniform numbers in [0, 1). */
export interface Random {
  (): number
}

/** 32-bit FNV-1a hash of a string: turns a text seed ("demo", "42") into a PRNG state. */
export function hashSeed(seed: string | number): number {
  const text = String(seed)
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}

/** mulberry32: period 2^32, good enough spread for synthetic data and ~10x faster than Math.random seeding tricks. */
export function createRandom(seed: string | number): Random {
  let state = hashSeed(seed)
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Standard normal deviate (Box-Muller; one of the pair is dropped, which keeps the stream simple to reason about). */
export function normal(random: Random): number {
  let u = 0
  while (u === 0) u = random()
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random())
}

/** Log-normal deviate whose MEDIAN is `median` and whose log has standard deviation `sigma`. */
export function logNormal(random: Random, median: number, sigma: number): number {
  return median * Math.exp(sigma * normal(random))
}

/** Integer in [min, max] inclusive. */
export function intBetween(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1))
}

export const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value))

/**
 * Weighted choice in O(log n): build once from non-negative weights, then `pick(random)` returns an index with
 * probability weight / total. @throws Error when every weight is 0 (nothing could ever be picked).
 */
export class WeightedPicker {
  private readonly cumulative: Float64Array
  readonly total: number

  constructor(weights: ArrayLike<number>) {
    this.cumulative = new Float64Array(weights.length)
    let sum = 0
    for (let i = 0; i < weights.length; i += 1) {
      sum += Math.max(0, weights[i]!)
      this.cumulative[i] = sum
    }
    if (!(sum > 0)) throw new Error('WeightedPicker: all weights are 0')
    this.total = sum
  }

  pick(random: Random): number {
    const target = random() * this.total
    let low = 0
    let high = this.cumulative.length - 1
    while (low < high) {
      const mid = (low + high) >>> 1
      if (this.cumulative[mid]! > target) high = mid
      else low = mid + 1
    }
    return low
  }
}
