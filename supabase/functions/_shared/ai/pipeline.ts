/**
 * The two content pipelines behind the edge functions, with their I/O passed in (database client, AI config and
 * model), so the functions stay thin: parse, check the caller, call these, answer.
 */
import type { TablesUpdate } from '../database.types.ts'
import type { AiConfig } from './config.ts'
import { BUILT_IN_WRITER_LABEL } from './config.ts'
import {
  loadEvergreenSheet,
  loadExistingTitles,
  loadFactSheet,
  loadSignalInput,
  resolveZipCodes,
  uniqueSlug,
} from './data.ts'
import { checkFigures, type FactSheet } from './facts.ts'
import { measureArticle } from './quality.ts'
import type { Db } from './http.ts'
import type { ModelClient } from './load-model.ts'
import { AiCallError, emptyUsage, type TokenUsage } from './usage.ts'
import { isNearDuplicate } from './normalize.ts'
import { ArticleOutlineSchema, ArticleSchema, TopicIdeasSchema, type DiscoverBody } from './schemas.ts'
import { rankTopicCandidates, seasonOf, type TopicCandidate } from './signals.ts'
import {
  ARTICLE_SYSTEM_PROMPT,
  articlePrompt,
  articleRow,
  checkedText,
  draftFromModel,
  factsForPrompt,
  outlinePrompt,
  withoutUnsupportedFigures,
  writeBuiltInArticle,
  type DraftArticle,
} from './writer.ts'

export interface PipelineDeps {
  db: Db
  config: AiConfig
  /** The SDK model and its structured call; null when config.provider is 'none' (built-in writer). */
  ai: ModelClient | null
  now?: () => Date
}

type TopicRow = Pick<
  TopicCandidate,
  | 'topic'
  | 'location'
  | 'hack_type'
  | 'consumer_benefit'
  | 'suggested_cta'
  | 'priority_score'
  | 'search_volume_estimate'
  | 'competition_level'
>

const TOPIC_SYSTEM_PROMPT = [
  'You plan articles for AgentInsight, a US site where home buyers and sellers compare real-estate agents by their results.',
  "You get SIGNALS from the site's own data. Turn the strongest into consumer topics: one topic per signal, naming the real ZIP or city and quoting a market figure exactly as the signal gives it (or none).",
  'Never print a number that is not in the signal you cite. Write for buyers and sellers, not agents.',
].join('\n')

/** Number tokens of a text; a model topic may print only the tokens of the evidence it cites. */
function figuresIn(text: string): string[] {
  return text.match(/\d[\d,]*(?:\.\d+)?/g) ?? []
}

/**
 * Discovers up to `count` new topics for `location` and inserts them as pending trending_topics rows.
 * Candidates that are near-duplicates (normalize.ts) of an existing topic, a published post title or an earlier
 * candidate are skipped. Returns the inserted rows.
 */
export async function discoverTopics(
  deps: PipelineDeps,
  body: DiscoverBody,
): Promise<{ inserted: TopicRow[]; usage: TokenUsage | null }> {
  const now = deps.now?.() ?? new Date()
  const existing = await loadExistingTitles(deps.db)
  const input = await loadSignalInput(deps.db, now, [...existing.topics, ...existing.posts])
  const candidates = rankTopicCandidates(input, body.location)
  if (candidates.length === 0) return { inserted: [], usage: null }

  let rows: TopicRow[] = candidates
  let usage: TokenUsage | null = null
  if (deps.ai && deps.config.provider !== 'none') {
    usage = emptyUsage()
    const offered = candidates.slice(0, 40)
    const prompt = [
      `Today: ${now.toISOString().slice(0, 10)} (${seasonOf(now)}). Location asked for: ${body.location}.`,
      `Write up to ${Math.min(body.count + 5, 50)} topics, strongest signals first.`,
      'SIGNALS:',
      ...offered.map((candidate) => `- id ${candidate.signalId} | ${candidate.location} | ${candidate.evidence}`),
    ].join('\n')
    const ideas = await deps.ai.generateStructured({
      model: deps.ai.model,
      schema: TopicIdeasSchema,
      schemaName: 'topics',
      system: TOPIC_SYSTEM_PROMPT,
      prompt,
      timeoutMs: deps.config.timeoutMs,
      maxRetries: deps.config.maxRetries,
      usage,
    })
    rows = []
    for (const idea of ideas.topics) {
      const candidate = offered.find((c) => c.signalId === idea.signal_id)
      if (!candidate) continue
      // every number token must be one the signal prints (whole tokens: "9" is not in "90 days")
      const printed = new Set([...figuresIn(candidate.evidence), ...figuresIn(candidate.location)])
      if (!figuresIn(idea.topic).every((figure) => printed.has(figure))) continue
      rows.push({
        ...candidate,
        topic: idea.topic.trim(),
        hack_type: idea.hack_type,
        consumer_benefit: idea.consumer_benefit,
        suggested_cta: idea.suggested_cta,
      })
    }
  }

  const reference = [...existing.topics, ...existing.posts]
  const picked: TopicRow[] = []
  for (const row of rows) {
    if (picked.length >= body.count) break
    if (isNearDuplicate(row.topic, reference)) continue
    reference.push(row.topic)
    picked.push({
      topic: row.topic.slice(0, 500),
      location: row.location,
      hack_type: row.hack_type,
      consumer_benefit: row.consumer_benefit,
      suggested_cta: row.suggested_cta,
      priority_score: row.priority_score,
      search_volume_estimate: row.search_volume_estimate,
      competition_level: row.competition_level,
    })
  }
  if (picked.length > 0) {
    const { error } = await deps.db.from('trending_topics').insert(picked.map((row) => ({ ...row, status: 'pending' })))
    if (error) throw new Error(`Could not save topics: ${error.message}`)
  }
  return { inserted: picked, usage }
}

export interface GenerationRequest {
  jobId: string
  topicId: string | null
  customTopic: string | null
  categoryId: string | null
  autoPublish: boolean
  userId: string
}

/** Creates the pending job row; the caller answers with its id and runs `runGenerationJob` in the background. */
export async function createGenerationJob(db: Db, request: Omit<GenerationRequest, 'jobId'>): Promise<string> {
  const { data, error } = await db
    .from('content_generation_jobs')
    .insert({
      topic_id: request.topicId,
      custom_topic: request.topicId ? null : request.customTopic,
      category_id: request.categoryId,
      status: 'pending',
    })
    .select('id')
    .single()
  if (error) throw new Error(`Could not create the generation job: ${error.message}`)
  return (data as { id: string }).id
}

const NAMED_ZIP = /(?<!\d)\d{5}(?!\d)/

/** A failure the admin should read as is (stored in error_message). */
export class GenerationError extends Error {
  override name = 'GenerationError'
}

async function updateJob(db: Db, jobId: string, values: TablesUpdate<'content_generation_jobs'>): Promise<void> {
  const { error } = await db.from('content_generation_jobs').update(values).eq('id', jobId)
  if (error) throw new Error(`Could not update generation job ${jobId}: ${error.message}`)
}

/**
 * pending -> generating -> completed (post written) | failed (error_message). Never throws: every failure ends
 * in the job row. A topic naming a known ZIP or city is written from that place's facts (local); a topic naming
 * no place is an evergreen guide from the site-wide facts (or none); a topic naming a ZIP without data fails.
 * The quality columns (quality.ts) are recorded for every draft, and the job fails rather than publish when the
 * text prints a figure that is not in the facts (facts.ts figure rule).
 */
export async function runGenerationJob(deps: PipelineDeps, request: GenerationRequest): Promise<void> {
  const { db } = deps
  const now = () => (deps.now?.() ?? new Date()).toISOString()
  const usage = emptyUsage()
  try {
    await updateJob(db, request.jobId, { status: 'generating', generation_started_at: now() })

    let topicText = request.customTopic ?? ''
    let location: string | null = null
    if (request.topicId) {
      const { data, error } = await db
        .from('trending_topics')
        .select('topic, location')
        .eq('id', request.topicId)
        .maybeSingle()
      if (error) throw new Error(`Could not read the topic: ${error.message}`)
      if (!data) throw new GenerationError('The selected topic no longer exists')
      topicText = (data as { topic: string }).topic
      location = (data as { location: string | null }).location
    }
    const place = location && location !== 'general' ? location : null
    const zips = await resolveZipCodes(db, place, topicText)
    let sheet: FactSheet | null = await loadFactSheet(db, zips)
    if (!sheet) {
      // A topic that names a ZIP we hold no data for is a local request we cannot ground; one naming no place is
      // an evergreen guide (site-wide figures only, or none).
      if (NAMED_ZIP.test(`${place ?? ''} ${topicText}`)) {
        throw new GenerationError(
          `No market data found for "${(place ?? topicText).slice(0, 120)}": name a ZIP or city that has Redfin benchmarks or closed sales, or a topic without a place for an evergreen guide`,
        )
      }
      sheet = await loadEvergreenSheet(db)
    }
    const factSheet = sheet
    const promptTopic = withoutUnsupportedFigures(topicText, factSheet)
    await updateJob(db, request.jobId, { content_mode: factSheet.mode })

    let draft: DraftArticle
    if (deps.ai && deps.config.provider !== 'none') {
      const { generateStructured } = deps.ai
      const target = deps.config.targetWords
      const firstPrompt = outlinePrompt(topicText, factSheet, target)
      await updateJob(db, request.jobId, {
        ai_prompt_used: `SYSTEM:\n${ARTICLE_SYSTEM_PROMPT}\n\nOUTLINE PROMPT:\n${firstPrompt}`,
        target_min_words: target.min,
        target_max_words: target.max,
      })
      const common = {
        model: deps.ai.model,
        system: ARTICLE_SYSTEM_PROMPT,
        timeoutMs: deps.config.timeoutMs,
        maxRetries: deps.config.maxRetries,
        usage,
      }
      const outline = await generateStructured({
        ...common,
        schema: ArticleOutlineSchema,
        schemaName: 'article_outline',
        prompt: firstPrompt,
      })
      const secondPrompt = articlePrompt(topicText, factSheet, outline, target)
      await updateJob(db, request.jobId, {
        ai_prompt_used: `SYSTEM:\n${ARTICLE_SYSTEM_PROMPT}\n\nOUTLINE PROMPT:\n${firstPrompt}\n\nARTICLE PROMPT:\n${secondPrompt}`,
        token_usage: usage,
      })
      const article = await generateStructured({
        ...common,
        schema: ArticleSchema,
        schemaName: 'article',
        prompt: secondPrompt,
        maxOutputTokens: Math.max(8000, target.max * 3),
      })
      draft = draftFromModel(article, factSheet, topicText)
    } else {
      await updateJob(db, request.jobId, {
        ai_prompt_used: `${BUILT_IN_WRITER_LABEL}\nTopic: ${promptTopic}\nPlace: ${factSheet.mode === 'evergreen' ? 'none (evergreen guide)' : factSheet.location}\nFACTS:\n${factsForPrompt(factSheet) || '(none)'}`,
      })
      draft = writeBuiltInArticle(factSheet, topicText)
    }

    const figures = checkFigures(checkedText(draft), factSheet)
    const row = articleRow(draft)
    await updateJob(db, request.jobId, measureArticle(row.content, figures, row.hack_density_score))
    if (!figures.ok) {
      throw new GenerationError(
        `The article prints figures that are not in the data: ${figures.unsupported.slice(0, 10).join(', ')}. Nothing was saved.`,
      )
    }

    const publishedAt = request.autoPublish ? now() : null
    let postId: string | null = null
    for (let attempt = 0; attempt < 3 && !postId; attempt += 1) {
      const slug = await uniqueSlug(db, row.slugBase)
      const { data, error } = await db
        .from('blog_posts')
        .insert({
          title: row.title,
          slug,
          content: row.content,
          excerpt: row.excerpt,
          meta_title: row.meta_title,
          meta_description: row.meta_description,
          category_id: request.categoryId,
          author_id: request.userId,
          location: factSheet.mode === 'local' ? (place ?? factSheet.location) : null,
          hack_density_score: row.hack_density_score,
          insights: row.insights,
          unique_insights: row.unique_insights,
          status: request.autoPublish ? 'published' : 'draft',
          published_at: publishedAt,
        })
        .select('id')
        .single()
      if (error?.code === '23505') continue // another writer took the slug between our read and insert
      if (error) throw new Error(`Could not save the post: ${error.message}`)
      postId = (data as { id: string }).id
    }
    if (!postId) throw new GenerationError('Could not find a free slug for the post')

    // the topic first: whoever sees the job completed (the admin, a test) sees its topic generated
    if (request.topicId) {
      const { error } = await db.from('trending_topics').update({ status: 'generated' }).eq('id', request.topicId)
      if (error) console.error(`Could not mark topic ${request.topicId} generated: ${error.message}`)
    }
    await updateJob(db, request.jobId, {
      status: 'completed',
      completed_at: now(),
      blog_post_id: postId,
      token_usage: usage.calls > 0 ? usage : null,
      error_message: null,
    })
  } catch (error) {
    const known = error instanceof GenerationError || error instanceof AiCallError
    if (!known) console.error(`generation job ${request.jobId} failed`, error)
    const message = known ? (error as Error).message : `Generation failed: ${(error as Error).message ?? String(error)}`
    try {
      await updateJob(db, request.jobId, {
        status: 'failed',
        completed_at: now(),
        error_message: message.slice(0, 1000),
        token_usage: usage.calls > 0 ? usage : null,
      })
    } catch (updateError) {
      console.error(`could not record the failure of job ${request.jobId}`, updateError)
    }
  }
}
