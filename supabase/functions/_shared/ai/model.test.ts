import { MockLanguageModelV4 } from 'ai/test'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startOpenAiCompatibleFixture, type OpenAiCompatibleFixture } from './openai-compatible-fixture.ts'
import { parseAiConfig, providerStatus, BUILT_IN_WRITER_LABEL } from './config.ts'
import { AiCallError, createLanguageModel, emptyUsage, generateStructured } from './model.ts'
import { TopicIdeasSchema } from './schemas.ts'

const validTopics = {
  topics: [
    {
      topic: 'Homes in 02139 sell in a median 21 days: how to price',
      signal_id: 'fast-market:02139',
      hack_type: 'pricing',
      consumer_benefit: 'Sellers learn how fast homes sell locally.',
      suggested_cta: 'Compare agents in 02139',
    },
  ],
}

function mockResult(text: string) {
  return {
    content: [{ type: 'text' as const, text }],
    finishReason: { unified: 'stop' as const, raw: 'stop' },
    usage: {
      inputTokens: { total: 120, noCache: 120, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 30, text: 30, reasoning: 0 },
    },
    warnings: [],
  }
}

const call = {
  schema: TopicIdeasSchema,
  schemaName: 'topics',
  system: 'sys',
  prompt: 'signals',
  timeoutMs: 5_000,
  maxRetries: 0,
}

describe('AI config', () => {
  it('defaults to the built-in writer and never exposes secrets in the status', () => {
    expect(providerStatus(parseAiConfig({}))).toEqual({ provider: 'none', model: null, label: BUILT_IN_WRITER_LABEL })
    const config = parseAiConfig({ AI_PROVIDER: 'anthropic', AI_API_KEY: 'sk-secret', AI_MODEL: 'claude-x' })
    expect(JSON.stringify(providerStatus(config))).not.toContain('sk-secret')
    expect(providerStatus(config)).toMatchObject({ provider: 'anthropic', model: 'claude-x' })
  })

  it('names the missing or bad variable', () => {
    expect(() => parseAiConfig({ AI_PROVIDER: 'openai' })).toThrow(
      'AI_PROVIDER must be one of none, openai-compatible, anthropic (got "openai")',
    )
    expect(() => parseAiConfig({ AI_PROVIDER: 'openai-compatible', AI_MODEL: 'm' })).toThrow('AI_BASE_URL is required')
    expect(() => parseAiConfig({ AI_PROVIDER: 'anthropic', AI_MODEL: 'm' })).toThrow('AI_API_KEY is required')
    expect(() => parseAiConfig({ AI_PROVIDER: 'anthropic', AI_API_KEY: 'k' })).toThrow('AI_MODEL is required')
    expect(() => parseAiConfig({ AI_PROVIDER: 'none', AI_TIMEOUT_MS: 'soon' })).toThrow('AI_TIMEOUT_MS is invalid')
    expect(() => parseAiConfig({ AI_PROVIDER: 'none', AI_TARGET_WORDS: 'long' })).toThrow(
      'AI_TARGET_WORDS is invalid: use "min-max" words, e.g. 1500-2500',
    )
    expect(() => parseAiConfig({ AI_PROVIDER: 'none', AI_TARGET_WORDS: '2500-1500' })).toThrow(
      'AI_TARGET_WORDS is invalid: min must be at least 100 and max between min and 20000',
    )
  })

  it('reads the word target of model articles, 1,500-2,500 by default', () => {
    const base = { AI_PROVIDER: 'openai-compatible', AI_BASE_URL: 'http://127.0.0.1:9/v1', AI_MODEL: 'm' }
    expect(parseAiConfig(base)).toMatchObject({ targetWords: { min: 1500, max: 2500 } })
    expect(parseAiConfig({ ...base, AI_TARGET_WORDS: '800 - 1200' })).toMatchObject({
      targetWords: { min: 800, max: 1200 },
    })
  })
})

describe('generateStructured with the SDK mock model', () => {
  it('returns the schema-valid object and records token usage', async () => {
    const model = new MockLanguageModelV4({ doGenerate: mockResult(JSON.stringify(validTopics)) })
    const usage = emptyUsage()
    await expect(generateStructured({ ...call, model, usage })).resolves.toEqual(validTopics)
    expect(usage).toEqual({ input_tokens: 120, output_tokens: 30, total_tokens: 150, calls: 1 })
    expect(model.doGenerateCalls[0]!.responseFormat).toMatchObject({ type: 'json', name: 'topics' })
  })

  it('asks again after invalid output and succeeds on the second answer', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: [mockResult('not json'), mockResult(JSON.stringify(validTopics))],
    })
    const usage = emptyUsage()
    await expect(generateStructured({ ...call, model, usage })).resolves.toEqual(validTopics)
    expect(model.doGenerateCalls).toHaveLength(2)
    expect(usage.calls).toBe(2)
  })

  it('fails with invalid-output after every attempt returned a schema mismatch', async () => {
    const model = new MockLanguageModelV4({ doGenerate: mockResult(JSON.stringify({ topics: [{ topic: 'x' }] })) })
    const error = await generateStructured({ ...call, model, usage: emptyUsage(), outputAttempts: 3 }).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(AiCallError)
    expect((error as AiCallError).kind).toBe('invalid-output')
    expect((error as AiCallError).message).toMatch(/^AI model returned invalid topics output 3 times/)
    expect(model.doGenerateCalls).toHaveLength(3)
  })
})

describe('generateStructured against a local OpenAI-compatible server (real HTTP client)', () => {
  let fixture: OpenAiCompatibleFixture
  beforeAll(async () => {
    fixture = await startOpenAiCompatibleFixture()
  })
  afterAll(async () => {
    await fixture.close()
  })

  const model = () => {
    const config = parseAiConfig({
      AI_PROVIDER: 'openai-compatible',
      AI_BASE_URL: fixture.baseUrl,
      AI_MODEL: 'fixture-model',
      AI_API_KEY: 'test-key',
    })
    if (config.provider === 'none') throw new Error('expected a provider')
    return createLanguageModel(config)
  }

  it('succeeds: sends the JSON schema and reads usage', async () => {
    fixture.script([
      { kind: 'content', content: JSON.stringify(validTopics), usage: { prompt_tokens: 900, completion_tokens: 80 } },
    ])
    const usage = emptyUsage()
    await expect(generateStructured({ ...call, model: model(), usage })).resolves.toEqual(validTopics)
    expect(usage).toEqual({ input_tokens: 900, output_tokens: 80, total_tokens: 980, calls: 1 })
    expect(fixture.requests[0]).toMatchObject({ model: 'fixture-model', response_format: { type: 'json_schema' } })
  })

  it('malformed output: asks again, then fails with a clear message', async () => {
    fixture.script([{ kind: 'content', content: '{"topics": [' }])
    const error = (await generateStructured({ ...call, model: model(), usage: emptyUsage() }).catch(
      (e: unknown) => e,
    )) as AiCallError
    expect(error.kind).toBe('invalid-output')
    expect(error.message).toMatch(/invalid topics output 2 times/)
    expect(fixture.requests).toHaveLength(2)
  })

  it('provider 500: retried by the SDK (maxRetries), then a provider error naming the status', async () => {
    fixture.script([{ kind: 'status', status: 500, message: 'upstream exploded' }])
    const error = (await generateStructured({ ...call, model: model(), usage: emptyUsage(), maxRetries: 1 }).catch(
      (e: unknown) => e,
    )) as AiCallError
    expect(error.kind).toBe('provider')
    expect(error.message).toContain('HTTP 500')
    expect(error.message).toContain('upstream exploded')
    expect(fixture.requests).toHaveLength(2)
  })

  it('provider 500 then success: the SDK retry recovers', async () => {
    fixture.script([
      { kind: 'status', status: 500, message: 'blip' },
      { kind: 'content', content: JSON.stringify(validTopics) },
    ])
    await expect(generateStructured({ ...call, model: model(), usage: emptyUsage(), maxRetries: 2 })).resolves.toEqual(
      validTopics,
    )
    expect(fixture.requests).toHaveLength(2)
  })

  it('timeout: a hung request is aborted and reported', async () => {
    fixture.script([{ kind: 'hang' }])
    const error = (await generateStructured({ ...call, model: model(), usage: emptyUsage(), timeoutMs: 300 }).catch(
      (e: unknown) => e,
    )) as AiCallError
    expect(error.kind).toBe('timeout')
    expect(error.message).toBe('AI model call timed out after 300 ms')
  })
})
