import { describe, expect, it } from 'vitest';
import { readingTimeMinutes, renderPostContent, sanitizePostHtml } from './post-content.ts';

describe('sanitizePostHtml', () => {
  const payloads: [string, RegExp][] = [
    ['<script>alert(1)</script><p>ok</p>', /<script/i],
    ['<img src="x" onerror="alert(1)">', /onerror/i],
    ['<a href="javascript:alert(1)">x</a>', /javascript:/i],
    ['<a href="JaVaScRiPt:alert(1)">x</a>', /javascript:/i],
    ['<iframe src="https://evil.example.com/x"></iframe>', /evil\.example/],
    ['<svg onload="alert(1)"><circle/></svg>', /onload|<svg/i],
    ['<p style="background:url(javascript:alert(1))">x</p>', /style=|javascript/i],
    ['<object data="x.swf"></object>', /<object/i],
    ['<math><mi xlink:href="javascript:alert(1)">x</mi></math>', /javascript/i],
    ['<form action="https://evil.example.com"><input name="q"></form>', /<form|<input/i],
    ['<a href="//evil.example.com">x</a>', /evil\.example/],
    ['<img src="data:image/svg+xml;base64,PHN2Zz4=">', /data:/i],
  ];
  it.each(payloads)('neutralizes %s', (payload, forbidden) => {
    expect(sanitizePostHtml(payload)).not.toMatch(forbidden);
  });

  it('gives links that open a new tab rel="noopener noreferrer"', () => {
    expect(sanitizePostHtml('<a href="https://example.com" target="_blank" rel="opener">x</a>')).toBe(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer">x</a>',
    );
  });

  it('keeps article markup and allowed video embeds', () => {
    const html = '<h2>Title</h2><p><a href="https://example.com">link</a></p><iframe src="https://www.youtube.com/embed/x"></iframe>';
    expect(sanitizePostHtml(html)).toBe(html);
  });
});

describe('readingTimeMinutes', () => {
  it('counts words after stripping tags, 200 a minute, rounded up', () => {
    expect(readingTimeMinutes(`<p>${'word '.repeat(200)}</p>`)).toBe(1);
    expect(readingTimeMinutes(`<p>${'word '.repeat(201)}</p>`)).toBe(2);
    expect(readingTimeMinutes('')).toBe(1);
  });
});

describe('renderPostContent', () => {
  it('builds the table of contents from h1 and h2 with unique anchor ids', () => {
    const { html, toc } = renderPostContent('<h1>Buying</h1><h2>Offers &amp; Bids</h2><h3>Skip</h3><h2>Offers &amp; Bids</h2>');
    expect(toc).toEqual([
      { id: 'buying', text: 'Buying', level: 1 },
      { id: 'offers-bids', text: 'Offers & Bids', level: 2 },
      { id: 'offers-bids-2', text: 'Offers & Bids', level: 2 },
    ]);
    expect(html).toContain('<h2 id="offers-bids-2">');
  });
});
