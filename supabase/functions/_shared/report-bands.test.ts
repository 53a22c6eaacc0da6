import { describe, expect, it } from 'vitest';

import { gaugeBand, percentileBand } from './report-bands.ts';

/** Each band boundary of spec section 9: the rule, the input (percentile, or gauge % of its maximum) and its band. */
const BOUNDARIES = [
  ...([[100, 'Excellent'], [80, 'Excellent'], [79.9, 'Good'], [60, 'Good'], [59, 'Average'], [40, 'Average'], [39.9, 'Below Average'], [0, 'Below Average']] as const).map(
    ([value, band]) => ({ rule: 'percentile', band: band as string, actual: () => percentileBand(value), value }),
  ),
  ...([[100, 'Excellent'], [90, 'Excellent'], [89.9, 'Good'], [70, 'Good'], [69, 'Fair'], [40, 'Fair'], [39, 'Poor']] as const).map(
    ([value, band]) => ({ rule: 'gauge %', band: band as string, actual: () => gaugeBand(value), value }),
  ),
];

describe('report bands (spec section 9)', () => {
  it.each(BOUNDARIES)('$rule $value is $band', ({ actual, band }) => {
    expect(actual()).toBe(band);
  });
});
