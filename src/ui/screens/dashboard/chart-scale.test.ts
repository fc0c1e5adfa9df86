import fc from 'fast-check';
import { labelIndices, valueAxis } from './chart-scale';

describe('valueAxis', () => {
  it('rounds the top up to 1, 2, 2.5 or 5 × 10ⁿ per step', () => {
    expect(valueAxis(7)).toEqual({ max: 8, ticks: [0, 2, 4, 6, 8] });
    expect(valueAxis(53120.4)).toEqual({ max: 80000, ticks: [0, 20000, 40000, 60000, 80000] });
    expect(valueAxis(0.9)).toEqual({ max: 1, ticks: [0, 0.25, 0.5, 0.75, 1] });
    expect(valueAxis(0)).toEqual({ max: 4, ticks: [0, 1, 2, 3, 4] });
  });

  it('covers a largest value a hair above a round step (a counterexample found in CI: an absolute tolerance let 1.000000000001e-5 get a 1e-5 top)', () => {
    const largest = 0.000010000000010000002;
    expect(valueAxis(largest).max).toBeGreaterThanOrEqual(largest);
  });

  it('always covers the largest value with evenly spaced ticks, at most 2.5× too tall (1000 runs)', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-6, max: 1e12, noNaN: true }), (largest) => {
        const { max, ticks } = valueAxis(largest);
        expect(max).toBeGreaterThanOrEqual(largest * (1 - 1e-9));
        expect(max).toBeLessThanOrEqual(largest * 2.5 * (1 + 1e-9));
        const step = ticks[1]!;
        ticks.forEach((tick, i) => expect(tick).toBeCloseTo(i * step, 6));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('labelIndices', () => {
  it('keeps the first and last bucket, at most the slots available, in order (1000 runs)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 2, max: 30 }), (count, slots) => {
        const picked = labelIndices(count, slots);
        expect(picked[0]).toBe(0);
        expect(picked.at(-1)).toBe(count - 1);
        expect(picked.length).toBeLessThanOrEqual(Math.max(slots, 1));
        picked.forEach((index, i) => i > 0 && expect(index).toBeGreaterThan(picked[i - 1]!));
      }),
      { numRuns: 1000 },
    );
    expect(labelIndices(0, 5)).toEqual([]);
    expect(labelIndices(3, 5)).toEqual([0, 1, 2]);
  });
});
