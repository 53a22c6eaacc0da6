import { describe, expect, it } from 'vitest';
import { buildFactSheet } from './data.ts';
import { checkFigures } from './facts.ts';
import { rankTopicCandidates, seasonOf } from './signals.ts';
import { articleRow, checkedText, draftFromModel, writeBuiltInArticle } from './writer.ts';

const benchmark = {
  zip_code: '02139', city: 'Cambridge', state: 'MA', period_end: '2026-06-30', median_sale_price: 850000, median_list_price: 829000,
  avg_sale_to_list_percent: 103.4, sold_above_list_fraction: 0.615, median_dom: 12, homes_sold: 41, attribution: 'Source: Redfin (redfin.com/news/data-center)',
};
const sales = {
  zip_code: '02139', city: 'Cambridge', state: 'MA', window_end: '2026-06-15', recent_sales: 14, prior_sales: 10,
  recent_median_price: 840000, prior_median_price: 805000, recent_median_dom: 11, recent_avg_sale_to_list: 102.8,
};

describe('built-in writer', () => {
  const sheet = buildFactSheet([benchmark], [sales])!;
  const draft = writeBuiltInArticle(sheet);
  const row = articleRow(draft);

  it('prints only figures from the facts, with a table, h2 sections and the Redfin credit', () => {
    expect(checkFigures(checkedText(draft), sheet)).toEqual({ ok: true, unsupported: [] });
    expect(row.title).toBe('02139 (Cambridge, MA) housing market: homes sell at 103.4% of list');
    expect(row.content).toContain('<table>');
    expect(row.content).toContain('<td>$850,000</td>');
    expect(row.content).toContain('Source: Redfin (redfin.com/news/data-center)');
    expect(row.content.match(/<h2>/g)!.length).toBeGreaterThanOrEqual(4);
    expect(row.content).toContain('14 closed sales were recorded in 02139 in the last 90 days of data, against 10 in the 90 days before (up 40%)');
    expect(row.meta_title.length).toBeLessThanOrEqual(60);
    expect(row.meta_description.length).toBeLessThanOrEqual(160);
    expect(row.unique_insights).toBe(row.insights.length);
    expect(row.hack_density_score).toBeGreaterThan(5);
    expect(row.slugBase).toBe('02139-cambridge-ma-housing-market-homes-sell-at-103-4-of-list');
  });

  it('has no fact sheet without data', () => {
    expect(buildFactSheet([], [])).toBeNull();
  });
});

describe('model article check', () => {
  it('catches a figure the model made up', () => {
    const sheet = buildFactSheet([benchmark], [])!;
    const draft = draftFromModel(
      {
        title: 'Cambridge sellers get 103.4% of list',
        excerpt: 'Homes in 02139 sold quickly in June 2026.',
        meta_title: 'Cambridge 02139 market',
        meta_description: 'What sellers in 02139 should know this summer.',
        sections: [
          { heading: 'Prices', html: '<p>The median sale price was $850,000.</p>' },
          { heading: 'Speed', html: '<p>Homes sold in 12 days, and prices rose 8.2% over the year.</p>' },
          { heading: 'Plan', html: '<ul><li>Compare 3 agents.</li></ul>' },
        ],
        insights: ['Homes sold at 103.4% of list.', '61.5% sold above list.', 'Median 12 days on market.'],
      },
      sheet,
    );
    expect(checkFigures(checkedText(draft), sheet).unsupported).toEqual(['8.2%']);
  });
});

describe('topic candidates', () => {
  it('turns signals into topics naming the real ZIP and figure, with scores in range', () => {
    const candidates = rankTopicCandidates({
      now: new Date('2026-07-10T00:00:00Z'),
      searches: [{ kind: 'area', label: '02139', zip_code: '02139', city: 'Cambridge', state: 'MA', recent_searches: 9, prior_searches: 2 }],
      benchmarks: [benchmark, { ...benchmark, zip_code: '02140', median_dom: 30, avg_sale_to_list_percent: 98.2 }],
      sales: [sales],
      reportAreas: [{ agent_location: 'Cambridge, MA', requests: 4 }],
      coverage: [],
    });
    expect(seasonOf(new Date('2026-07-10T00:00:00Z'))).toBe('summer');
    const topics = candidates.map((c) => c.topic);
    expect(topics).toContain('Homes in 02139 (Cambridge, MA) sell in a median 12 days: how sellers should price from day one');
    expect(topics).toContain('Sellers in 02140 (Cambridge, MA) get 98.2% of list: where buyers have room to negotiate');
    expect(topics).toContain('Closed sales in 02139 (Cambridge, MA) up 40% in 90 days: what it means for summer sellers');
    for (const c of candidates) {
      expect(c.priority_score).toBeGreaterThanOrEqual(0);
      expect(c.priority_score).toBeLessThanOrEqual(100);
      expect(c.search_volume_estimate).toBeLessThanOrEqual(100);
    }
    // the searched ZIP outranks the unsearched one
    const searched = candidates.find((c) => c.signalId === 'fast-market:02139')!;
    const quiet = candidates.find((c) => c.signalId === 'fast-market:02140')!;
    expect(searched.search_volume_estimate).toBe(100);
    // 02140 only shares the city's report requests: ln(1 + 4) / ln(1 + 13)
    expect(quiet.search_volume_estimate).toBe(61);
    expect(searched.priority_score).toBeGreaterThan(quiet.priority_score);
    expect(rankTopicCandidates({ now: new Date(), searches: [], benchmarks: [benchmark], sales: [], reportAreas: [], coverage: [] }, '02140')).toEqual([]);
  });
});
