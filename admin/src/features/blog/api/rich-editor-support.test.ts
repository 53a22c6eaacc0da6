import { describe, expect, it } from 'vitest'

import { richEditorUnsupported } from './rich-editor-support'

describe('richEditorUnsupported', () => {
  it('is empty for what the rich editor writes', () => {
    expect(
      richEditorUnsupported(
        '<h2>A</h2><p><strong>b</strong> <a href="https://x.test">c</a></p><ul><li><p>d</p></li></ul><div data-callout="insight"><p>e</p></div><img src="https://x.test/a.png" alt="f">',
      ),
    ).toEqual([])
  })

  it('names tables, frames, other divs and code once each, in order', () => {
    expect(
      richEditorUnsupported(
        '<table><tr><td>1</td></tr></table><iframe src="https://v.test"></iframe><div class="x"></div><TABLE></TABLE><pre><code>x</code></pre>',
      ),
    ).toEqual(['table', 'embedded frame', 'block container', 'code block', 'code'])
  })
})
