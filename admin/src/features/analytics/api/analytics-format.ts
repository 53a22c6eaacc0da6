const countFormat = new Intl.NumberFormat('en-US')
const percentFormat = new Intl.NumberFormat('en-US', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 })

/** 12345 → '12,345'. */
export function formatCount(value: number): string {
  return countFormat.format(value)
}

/** A FRACTION 0-1 as a percent with one decimal (2/3 → '66.7%'); null (no visitors) → '—'. */
export function formatRate(fraction: number | null): string {
  return fraction === null ? '—' : percentFormat.format(fraction)
}
