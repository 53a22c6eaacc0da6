import { describe, expect, it } from 'vitest';

import { gaugeBand, percentileBand } from './report-bands.ts';

describe('report bands (spec section 9)', () => {
  it.each([
    [100, 'Excellent'],
    [80, 'Excellent'],
    [79.9, 'Good'],
    [60, 'Good'],
    [59, 'Average'],
    [40, 'Average'],
    [39.9, 'Below Average'],
    [0, 'Below Average'],
  ] as const)('percentile %s is %s', (percentile, band) => {
    expect(percentileBand(percentile)).toBe(band);
  });

  it.each([
    [100, 'Excellent'],
    [90, 'Excellent'],
    [89.9, 'Good'],
    [70, 'Good'],
    [69, 'Fair'],
    [40, 'Fair'],
    [39, 'Poor'],
  ] as const)('gauge at %s %% of its maximum is %s', (percent, band) => {
    expect(gaugeBand(percent)).toBe(band);
  });
});
