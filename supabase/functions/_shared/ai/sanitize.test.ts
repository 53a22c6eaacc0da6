import { describe, expect, it } from 'vitest';
import { IFRAME_HOSTS as siteHosts, sanitizePostHtml as siteSanitize } from '../../../../src/lib/post-content.ts';
import { IFRAME_HOSTS, sanitizePostHtml } from './sanitize.ts';

// The function's copy of the allow-list must behave exactly like the site's (see sanitize.ts).
const corpus = [
  '<h2 id="x" onclick="alert(1)">Title</h2><p style="color:red">Text <strong>bold</strong> <em>em</em></p>',
  '<script>alert(1)</script><style>p{}</style><p>after</p>',
  '<a href="javascript:alert(1)">js</a><a href="https://example.com" target="_blank">ext</a><a href="mailto:a@b.co">m</a>',
  '<img src="https://example.com/a.png" alt="a" onerror="x"><img src="data:image/png;base64,AAA">',
  '<iframe src="https://www.youtube.com/embed/x" allowfullscreen></iframe><iframe src="https://evil.example/x"></iframe>',
  '<table><thead><tr><th scope="col" class="c">H</th></tr></thead><tbody><tr><td colspan="2">1</td></tr></tbody></table>',
  '<div><span>s</span><form><input></form><svg><circle/></svg><object></object></div>',
  '<a href="//evil.example/x">proto-relative</a><h7>x</h7><u>u</u><s>s</s><sub>1</sub><sup>2</sup><pre><code>c</code></pre>',
];

describe('function sanitizer matches src/lib/post-content.ts', () => {
  it('has the same iframe hosts', () => {
    expect(IFRAME_HOSTS).toEqual(siteHosts);
  });

  it.each(corpus)('sanitizes %s identically', (html) => {
    expect(sanitizePostHtml(html)).toBe(siteSanitize(html));
  });
});
