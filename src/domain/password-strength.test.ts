import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MIN_PASSWORD_LENGTH,
  PASSWORD_SCORES,
  passwordStrength,
  strengthLevel,
  type PasswordScore,
} from './password-strength';

const RUNS = { numRuns: 1000 };

// Character pools chosen by hand, independently of the implementation's regexes.
const UPPERS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'É', 'Ñ', 'Ø', 'Ω'];
const LOWERS = [...'abcdefghijklmnopqrstuvwxyz', 'é', 'ñ', 'ø', 'ω'];
const DIGITS = [...'0123456789'];
const SPECIALS = [...'!@#$%^&*()-_=+[]{};:\'",.<>/?\\|`~ ', '€', '§', '😀', '\u00a0'];

const upper = fc.constantFrom(...UPPERS);
const lower = fc.constantFrom(...LOWERS);
const alnum = fc.constantFrom(...UPPERS, ...LOWERS, ...DIGITS);
const special = fc.constantFrom(...SPECIALS);

/**
 * Strong-by-construction passwords: pairs of letters/digits separated by one
 * special each, so no three consecutive characters can form a run or a sequence
 * (that would need three alphanumerics in a row, or two adjacent specials).
 */
const strongPassword = fc
  .tuple(
    upper,
    lower,
    fc.array(fc.tuple(alnum, alnum), { minLength: 2, maxLength: 10 }),
    fc.array(special, { minLength: 12, maxLength: 12 }),
  )
  .map(([u, l, pairs, specials]) => {
    const groups = [[u, l], ...pairs];
    return groups.map((pair, i) => `${pair.join('')}${specials[i] ?? '!'}`).join('');
  });

describe('passwordStrength — examples', () => {
  it.each<[string, PasswordScore]>([
    ['', 50],
    ['Ab!@x', 50],
    ['Ab!@xY#', 50], // 7 code points
    ['aaaXy!@Q', 50], // run of letters
    ['Xy!@Q111', 50], // run of digits
    ['Xy!!!Qwe', 50], // run of specials
    ['Xy!@Qabc', 50], // letter sequence
    ['Xy!@QaBc', 50], // case-insensitive letter sequence
    ['XYZ!@qwe', 50], // upper-case sequence
    ['Xy!@Q012', 50],
    ['Xy!@Q789', 50],
    ['Xy!@Q9ab', 100], // digits and letters are separate series
    ['Xy!@Qyza', 100], // no wrap-around
    ['Xy!@Qcba', 100], // descending is fine
    ['Xy!@Q890', 100], // no wrap-around for digits
    ['Xy!@Qaab', 100], // two identical are fine
    ['Xy!@Qabb', 100], // a step then a repeat is not a sequence
    ['Xy!@Qabd', 100], // steps must both be +1
    ['Xy!@Qace', 100],
    ['Xy!@Q124', 100],
    ['Xy!@Q135', 100],
    ['Xy!@Qa-b-c', 100], // separated letters are not consecutive
    ['Xy!@Q01c', 100], // digits then a letter at the "next" alphabet index
    ['Xy!@Qab2', 100],
    ['Pa$$w0rd', 100], // two specials plus both cases
    ['passw0rd', 75], // no upper, no specials
    ['PASSW0RD!!', 75], // no lower
    ['Passw0rd!', 75], // one special
    ['Pass w0rd!', 100], // a space is special
    ['Senha😀Forte😀', 100], // emoji are specials and count as one code point each
    ['😀😀😀😀😀😀😀', 50], // 7 code points though 14 UTF-16 units; also a run
    ['😀a😀b😀c😀', 50], // 7 code points
    ['Ñandú!ç?', 100], // Unicode letters count as upper/lower
    ['ÁÉÍÓÚ!?x', 100],
    ['ÁÉÍÓÚ!?1', 75], // no lower-case letter
  ])('%j scores %i', (password, expected) => {
    expect(passwordStrength(password)).toBe(expected);
  });

  it('uses a minimum length of 8', () => {
    expect(MIN_PASSWORD_LENGTH).toBe(8);
    expect(passwordStrength('Xy!@Qwe')).toBe(50);
    expect(passwordStrength('Xy!@Qwer')).toBe(100);
  });
});

describe('strengthLevel', () => {
  it.each<[PasswordScore, string]>([
    [50, 'weak'],
    [75, 'medium'],
    [100, 'strong'],
  ])('%i is %s', (score, level) => {
    expect(strengthLevel(score)).toBe(level);
  });

  it('round-trips through PASSWORD_SCORES', () => {
    for (const [level, score] of Object.entries(PASSWORD_SCORES)) {
      expect(strengthLevel(score)).toBe(level);
    }
  });
});

describe('passwordStrength — properties', () => {
  it('scores any string shorter than 8 code points as weak', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-composite', maxLength: 7 }), (s) => {
        fc.pre(Array.from(s).length < 8);
        expect(passwordStrength(s)).toBe(50);
      }),
      RUNS,
    );
  });

  it('scores as weak once a run of 3 identical characters is inserted anywhere', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.nat(),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
        (s, at, ch) => {
          const chars = Array.from(s);
          const i = at % (chars.length + 1);
          const withRun = [...chars.slice(0, i), ch, ch, ch, ...chars.slice(i)].join('');
          expect(passwordStrength(withRun)).toBe(50);
        },
      ),
      RUNS,
    );
  });

  it('scores as weak once an ascending triple is inserted anywhere', () => {
    const triple = fc.oneof(
      fc.integer({ min: 0, max: 7 }).map((d) => `${d}${d + 1}${d + 2}`),
      fc
        .tuple(fc.integer({ min: 0, max: 23 }), fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }))
        .map(([start, caps]) =>
          caps
            .map((cap, k) => {
              const c = String.fromCharCode(97 + start + k);
              return cap ? c.toUpperCase() : c;
            })
            .join(''),
        ),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.nat(), triple, (s, at, seq) => {
        const chars = Array.from(s);
        const i = at % (chars.length + 1);
        expect(passwordStrength([...chars.slice(0, i), seq, ...chars.slice(i)].join(''))).toBe(50);
      }),
      RUNS,
    );
  });

  it('scores constructed strong passwords as 100', () => {
    fc.assert(
      fc.property(strongPassword, (p) => {
        expect(passwordStrength(p)).toBe(100);
      }),
      RUNS,
    );
  });

  it('drops a strong password to medium when it loses its upper-case letters', () => {
    fc.assert(
      fc.property(strongPassword, (p) => {
        expect(passwordStrength(p.toLowerCase())).toBe(75);
      }),
      RUNS,
    );
  });

  it('scores passwords with upper, lower but a single special as medium', () => {
    fc.assert(
      fc.property(strongPassword, fc.constantFrom('λ', 'μ', 'π'), (p, letter) => {
        // Greek letters are outside the pair pool and outside the ASCII series, so
        // swapping every special but the first for one cannot create a run or a sequence.
        let seen = 0;
        const oneSpecial = Array.from(p)
          .map((c) => (SPECIALS.includes(c) && (seen += 1) > 1 ? letter : c))
          .join('');
        expect(passwordStrength(oneSpecial)).toBe(75);
      }),
      RUNS,
    );
  });

  it('always returns one of the three scores, deterministically, without throwing', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const score = passwordStrength(s);
        expect([50, 75, 100]).toContain(score);
        expect(passwordStrength(s)).toBe(score);
        expect(passwordStrength(String(s))).toBe(score);
      }),
      RUNS,
    );
  });
});
