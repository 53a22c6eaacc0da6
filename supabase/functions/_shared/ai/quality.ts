/**
 * Quality of a generated article as measured numbers (content_generation_jobs quality columns, shown in the admin
 * job list): words and reading time of the body, its h2/h3 headings, how many figures the figure check read and
 * which ones it could not match, and the hack density score. Pure; no I/O.
 */
import { htmlToText, readingTimeMinutes } from '../post-content.ts'
import type { FigureCheck } from './facts.ts'

export interface ArticleQuality {
  /** Words of the body text (tags stripped). */
  word_count: number
  /** Whole minutes, words / 200 rounded up (the site's reading-time rule). */
  reading_time_minutes: number
  /** h2 and h3 elements of the body. */
  heading_count: number
  /** Number tokens the figure check read. */
  figures_checked: number
  /** Figures that match no fact (a non-empty list fails the job). */
  unsupported_figures: string[]
  /** Hack density 0-10. */
  density_score: number
}

/** Measures sanitized article HTML, given the figure check of the whole draft and its density score. */
export function measureArticle(content: string, figures: FigureCheck, densityScore: number): ArticleQuality {
  return {
    word_count: htmlToText(content).split(/\s+/).filter(Boolean).length,
    reading_time_minutes: readingTimeMinutes(content),
    heading_count: (content.match(/<h[23][\s>]/gi) ?? []).length,
    figures_checked: figures.checked,
    unsupported_figures: figures.unsupported.slice(0, 50),
    density_score: densityScore,
  }
}
