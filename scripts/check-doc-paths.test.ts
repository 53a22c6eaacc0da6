import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { deadPathsIn, FEATURE_INDEX_HEADING, unindexedTests, unlinkedDocs } from './check-doc-paths.ts'

describe('docs dead-path check', () => {
  let dir: string
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-paths-'))
    fs.mkdirSync(path.join(dir, 'src/lib'), { recursive: true })
    fs.mkdirSync(path.join(dir, 'docs'), { recursive: true })
    fs.writeFileSync(path.join(dir, 'src/lib/here.ts'), '')
  })
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

  it('names a code span or a relative link whose file is missing, with its line', () => {
    const doc = path.join(dir, 'docs/guide.md')
    fs.writeFileSync(
      doc,
      [
        'Reads `src/lib/here.ts:12` and `src/lib/gone.ts`.',
        'See [the guide](../src/lib/moved.ts) and [home](../src/lib/here.ts#top).',
        '```sh',
        'cat src/lib/inside-a-fence.ts',
        '```',
      ].join('\n'),
    )
    expect(deadPathsIn(doc, dir)).toEqual([
      { file: 'docs/guide.md', line: 1, target: 'src/lib/gone.ts' },
      { file: 'docs/guide.md', line: 2, target: '../src/lib/moved.ts' },
    ])
  })

  it('skips placeholders, globs, generated folders and files the reader creates', () => {
    const doc = path.join(dir, 'README.md')
    fs.writeFileSync(doc, '`src/pages/<slug>.astro` `tests/**/*.ts` `dist/site` `supabase/functions/.env` `npm test`')
    expect(deadPathsIn(doc, dir)).toEqual([])
  })

  it('names every document under docs/ that README.md does not link', () => {
    fs.mkdirSync(path.join(dir, 'docs/decisions'))
    for (const file of [
      'docs/linked.md',
      'docs/orphan.md',
      'docs/decisions/0001-kept.md',
      'docs/decisions/0002-lost.md',
    ])
      fs.writeFileSync(path.join(dir, file), '# x')
    fs.writeFileSync(
      path.join(dir, 'README.md'),
      'See [linked](docs/linked.md#top), [kept](./docs/decisions/0001-kept.md) and `docs/orphan.md` (a code span is no link).',
    )
    expect(unlinkedDocs(dir)).toEqual(['docs/decisions/0002-lost.md', 'docs/orphan.md'])
  })

  it('names the stack and browser test files the index by feature leaves out', () => {
    fs.mkdirSync(path.join(dir, 'tests/integration'), { recursive: true })
    fs.mkdirSync(path.join(dir, 'tests/e2e'), { recursive: true })
    for (const file of [
      'tests/integration/search.test.ts',
      'tests/integration/imports.test.ts',
      'tests/e2e/blog.spec.ts',
    ])
      fs.writeFileSync(path.join(dir, file), '')
    fs.writeFileSync(path.join(dir, 'tests/e2e/support.ts'), '')
    fs.writeFileSync(
      path.join(dir, 'docs/testing.md'),
      // `imports` outside the index does not count
      ['Mentions `imports`.', FEATURE_INDEX_HEADING, '| Search | `search` | `blog` |', '## Next', '`imports`'].join(
        '\n',
      ),
    )
    expect(unindexedTests(dir)).toEqual(['tests/integration/imports.test.ts'])
  })
})
