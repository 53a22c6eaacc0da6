/**
 * The verbal bands of the agent report, shared by the sample report page, its PDF and the agent
 * profile's metric cards.
 */

export type PercentileBand = 'Excellent' | 'Good' | 'Average' | 'Below Average'
export type GaugeBand = 'Excellent' | 'Good' | 'Fair' | 'Poor'

/** A percentile card's band from a percentile 0-100: >= 80 Excellent, >= 60 Good, >= 40 Average, else Below Average. */
export function percentileBand(percentile: number): PercentileBand {
  if (percentile >= 80) return 'Excellent'
  if (percentile >= 60) return 'Good'
  if (percentile >= 40) return 'Average'
  return 'Below Average'
}

/**
 * A gauge's band from its value as a PERCENT 0-100 of the gauge's maximum: >= 90 Excellent, >= 70 Good, >= 40 Fair,
 * else Poor.
 */
export function gaugeBand(percentOfMax: number): GaugeBand {
  if (percentOfMax >= 90) return 'Excellent'
  if (percentOfMax >= 70) return 'Good'
  if (percentOfMax >= 40) return 'Fair'
  return 'Poor'
}
