/**
 * Hack density: the editorial 0-10 score of how much concrete, actionable advice a post carries
 * (blog_posts.hack_density_score). Bands and labels follow the public-site spec: >= 8 high, >= 5 medium, else low.
 * Shared by the site's badges, the admin and the AI writer's density score (./ai/density.ts).
 */

export type DensityBand = 'high' | 'medium' | 'low'

/** Band of a 0-10 score; a missing score counts as 0 (low). */
export function densityBand(score: number | null): DensityBand {
  const value = score ?? 0
  if (value >= 8) return 'high'
  if (value >= 5) return 'medium'
  return 'low'
}

/** Badge text of a band: "High Density", "Medium Density", "Low Density". */
export function densityLabel(score: number | null): string {
  return { high: 'High Density', medium: 'Medium Density', low: 'Low Density' }[densityBand(score)]
}

/** How actionable a post reads: "Highly Actionable" (>= 8), "Actionable" (>= 5), else "Informational". */
export function actionabilityLabel(score: number | null): string {
  return { high: 'Highly Actionable', medium: 'Actionable', low: 'Informational' }[densityBand(score)]
}

/** A post is featured on /blog when its score is at least 7. */
export const FEATURED_MIN_SCORE = 7

export function isFeatured(score: number | null): boolean {
  return (score ?? 0) >= FEATURED_MIN_SCORE
}
