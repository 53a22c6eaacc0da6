/**
 * Hack density: the editorial 0-10 score of how much concrete, actionable advice a post carries
 * (blog_posts.hack_density_score). Bands: >= 8 high (green), >= 5 medium (blue), >= 3 fair
 * (yellow), else low (gray); actionability labels 'Highly Actionable', 'Very Actionable', 'Actionable',
 * 'Informational'. Shared by the site's badges, the admin and the AI writer's density score (./ai/density.ts).
 */

export type DensityBand = 'high' | 'medium' | 'fair' | 'low'

/** Band of a 0-10 score; a missing score counts as 0 (low). */
export function densityBand(score: number | null): DensityBand {
  const value = score ?? 0
  if (value >= 8) return 'high'
  if (value >= 5) return 'medium'
  if (value >= 3) return 'fair'
  return 'low'
}

/** Badge text of a band: "High Density", "Medium Density", "Low Density" (fair and low both read "Low"). */
export function densityLabel(score: number | null): string {
  return { high: 'High Density', medium: 'Medium Density', fair: 'Low Density', low: 'Low Density' }[densityBand(score)]
}

/** How actionable a post reads: "Highly Actionable", "Very Actionable", "Actionable", "Informational". */
export function actionabilityLabel(score: number | null): string {
  return { high: 'Highly Actionable', medium: 'Very Actionable', fair: 'Actionable', low: 'Informational' }[
    densityBand(score)
  ]
}

/** A post is featured on /blog when its score is at least 7. */
export const FEATURED_MIN_SCORE = 7

export function isFeatured(score: number | null): boolean {
  return (score ?? 0) >= FEATURED_MIN_SCORE
}
