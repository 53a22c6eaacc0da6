import type { GenerationJob } from '../api/content-queries'

const count = (value: number) => value.toLocaleString('en-US')

/**
 * The measured quality of a generation job (content_generation_jobs quality columns, written by
 * generate-blog-content): words against the word target, reading time, headings, the figure check and the hack
 * density score. Nothing is shown before the job has a draft to measure.
 */
export function ContentJobQuality({ job }: { job: GenerationJob }) {
  if (job.word_count === null) return null
  const target =
    job.target_min_words !== null && job.target_max_words !== null
      ? { min: job.target_min_words, max: job.target_max_words }
      : null
  const offTarget = target !== null && (job.word_count < target.min || job.word_count > target.max)
  const unsupported = job.unsupported_figures
  return (
    <dl className="mt-1 flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-slate-600" aria-label="Article quality">
      <div className="flex gap-1">
        <dt className="sr-only">Words</dt>
        <dd className={offTarget ? 'text-amber-700' : undefined}>
          {count(job.word_count)} words{target && ` (target ${count(target.min)}–${count(target.max)})`}
        </dd>
      </div>
      {job.reading_time_minutes !== null && (
        <div className="flex gap-1">
          <dt className="sr-only">Reading time</dt>
          <dd>{job.reading_time_minutes} min read</dd>
        </div>
      )}
      {job.heading_count !== null && (
        <div className="flex gap-1">
          <dt className="sr-only">Headings</dt>
          <dd>{job.heading_count} headings</dd>
        </div>
      )}
      {job.figures_checked !== null && (
        <div className="flex gap-1">
          <dt className="sr-only">Figure check</dt>
          <dd className={unsupported.length > 0 ? 'text-red-700' : 'text-green-800'}>
            {job.figures_checked} figures checked,{' '}
            {unsupported.length === 0 ? 'all match the data' : `not in the data: ${unsupported.join(', ')}`}
          </dd>
        </div>
      )}
      {job.density_score !== null && (
        <div className="flex gap-1">
          <dt className="sr-only">Hack density</dt>
          <dd>density {Number(job.density_score).toFixed(1)}/10</dd>
        </div>
      )}
      {job.content_mode === 'evergreen' && (
        <div className="flex gap-1">
          <dt className="sr-only">Mode</dt>
          <dd>evergreen guide</dd>
        </div>
      )}
    </dl>
  )
}
