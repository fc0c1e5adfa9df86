import fc from 'fast-check';
import { FORMULA_START_SOURCE, neutraliseFormula, SAFE_FIRST_CODES, startsLikeFormula } from './csv-formula';

// Written out by hand, not read from the module, so these tests state the rule on their own.
const TRIGGERS = ['=', '+', '-', '@', '\t', '\r', '\n', '\u0000', '＝', '＋', '－', '＠'];
const BLANK_RUNS = [
  '',
  ' ',
  '   ',
  '\u00A0',
  '\u200B',
  '\u200D',
  '\u202E',
  '\u2066',
  '\u2060',
  '\uFEFF',
  '\u3000',
  '\u0001',
  '\u007F',
  '\u0085',
  '\u00AD',
  ' \u200B\u00A0 ',
];

describe('CSV formula guard (CSV injection)', () => {
  it('prefixes text led by every trigger, straight away or after spaces, controls and invisible marks', () => {
    for (const blanks of BLANK_RUNS) {
      for (const trigger of TRIGGERS) {
        const text = `${blanks}${trigger}1+1`;
        expect(neutraliseFormula(text), JSON.stringify(text)).toBe(`'${text}`);
      }
    }
  });

  it('the payloads of the report, prefixed and otherwise intact', () => {
    expect(neutraliseFormula('=HYPERLINK("http://x.test","y")')).toBe(`'=HYPERLINK("http://x.test","y")`);
    expect(neutraliseFormula("+cmd|' /C calc'!A0")).toBe("'+cmd|' /C calc'!A0");
    expect(neutraliseFormula('@SUM(1+1)')).toBe("'@SUM(1+1)");
    expect(neutraliseFormula('-2+3')).toBe("'-2+3");
    expect(neutraliseFormula('\t=1')).toBe("'\t=1");
    expect(neutraliseFormula('+55 11 91234-5678')).toBe("'+55 11 91234-5678");
    expect(neutraliseFormula('＝1+1')).toBe("'＝1+1");
  });

  it('leaves text alone when no trigger leads it', () => {
    const safe = [
      '',
      'Maria',
      'farmacia-central',
      '123',
      '12,50',
      "'=1+1",
      'a=1',
      'x-y',
      ' Maria',
      '\u00A0Ana',
      '😀=1',
      '(11) 91234-5678',
      '#1',
      '|cmd',
      '%1',
      '€5',
      'ü',
      ' ',
      '\u200B',
    ];
    for (const text of safe) expect(neutraliseFormula(text), JSON.stringify(text)).toBe(text);
  });

  it('any code point behind a space: prefixed exactly when it is a trigger', () => {
    const triggers = new Set(TRIGGERS);
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const c = String.fromCharCode(code);
      expect(startsLikeFormula(` ${c}x`)).toBe(triggers.has(c));
      expect(startsLikeFormula(`${c}x`)).toBe(triggers.has(c));
    }
  });

  it('the first-character fast path gives the regular expression’s answer for every first character', () => {
    const full = new RegExp(FORMULA_START_SOURCE);
    for (let code = 0; code <= 0xffff; code++) {
      for (const text of [String.fromCharCode(code), `${String.fromCharCode(code)}=1`])
        expect(startsLikeFormula(text)).toBe(full.test(text));
    }
    // The fast path's range starts past every ASCII trigger and blank and ends before DEL.
    expect(String.fromCharCode(SAFE_FIRST_CODES.min)).toBe('A');
    expect(String.fromCharCode(SAFE_FIRST_CODES.max)).toBe('~');
  });

  it("never drops or changes text: the result is the text, or `'` and the text (any string)", () => {
    const texts = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 30 }),
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc
        .tuple(fc.constantFrom(...BLANK_RUNS), fc.constantFrom(...TRIGGERS), fc.string({ maxLength: 10 }))
        .map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(texts, (text) => {
        const out = neutraliseFormula(text);
        expect(out === text || out === `'${text}`).toBe(true);
        expect(out === `'${text}`).toBe(startsLikeFormula(text));
      }),
      { numRuns: 5000 },
    );
  });
});
