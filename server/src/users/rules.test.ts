import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { isValidEmail } from '../../../src/domain/email';
import { DomainError } from '../base/domain-error';
import { checkEmail, checkImage, checkName } from './rules';

/**
 * The users service's rules against what REST validates before a handler runs (contracts/openapi.yaml
 * `Email`, `PersonName`, `UserUpdate.image`, with ajv and ajv-formats as server/src/app.ts sets them
 * up): a value one protocol accepts, the other accepts too, so REST and GraphQL cannot drift.
 */

const ajv = new Ajv2020({ strict: false });
addFormats.default(ajv);
const emailSchema = ajv.compile({ type: 'string', format: 'email', minLength: 3, maxLength: 254 });
const nameSchema = ajv.compile({ type: 'string', minLength: 1, maxLength: 120 });
const imageSchema = ajv.compile({ type: 'string', format: 'uri', maxLength: 2048 });

const accepts = (check: () => unknown): boolean => {
  try {
    check();
    return true;
  } catch (error) {
    if (error instanceof DomainError) return false;
    throw error;
  }
};

/** Strings near the edges of an e-mail address: real ones, ones with a character changed, and noise. */
const emailLike = fc.oneof(
  fc.emailAddress(),
  fc
    .tuple(fc.emailAddress(), fc.nat(), fc.constantFrom(' ', '@', '..', 'ç', '\u00a0', '', '-', '.', '+', '"', 'A'))
    .map(([email, at, insert]) => {
      const i = at % (email.length + 1);
      return email.slice(0, i) + insert + email.slice(i);
    }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.stringMatching(/^[a-z.@-]{1,12}$/),
);

describe('users rules agree with the contract as REST validates it', () => {
  it('e-mail: src/domain/email.ts accepts exactly what the contract accepts', () => {
    fc.assert(
      fc.property(emailLike, (value) => {
        expect(isValidEmail(value)).toBe(emailSchema(value));
      }),
      { numRuns: 3000 },
    );
  });

  it('e-mail: known answers, and storage in lower case', () => {
    for (const good of ['ana@demo.local', 'Ana.Silva+x@Drogaria-Sao-Paulo.com.br', "o'hara@x.io"])
      expect(isValidEmail(good)).toBe(true);
    for (const bad of [
      ' ana@demo.local',
      'ana@demo.local ',
      'ana@@demo.local',
      'ana@demo',
      'ana@-demo.local',
      'a@b',
      'joão@demo.local',
      `${'a'.repeat(250)}@x.io`,
    ]) {
      expect(isValidEmail(bad)).toBe(false);
    }
    expect(checkEmail('Ana@Demo.Local')).toBe('ana@demo.local');
  });

  it('name: at most 120 characters as JSON Schema counts them (code points), not blank, stored trimmed', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 130 }), (value) => {
        const ok = accepts(() => checkName(value));
        // The contract's length rule, plus "not blank", which JSON Schema cannot state.
        expect(ok).toBe(nameSchema(value) && value.trim().length > 0);
      }),
      { numRuns: 2000 },
    );
    expect(checkName('  Ana  ')).toBe('Ana');
    expect(accepts(() => checkName('😀'.repeat(120)))).toBe(true);
    expect(accepts(() => checkName('😀'.repeat(121)))).toBe(false);
  });

  it('image: an http(s) URL the contract accepts', () => {
    const urls = fc.oneof(
      fc.webUrl(),
      fc.webUrl().map((u) => `${u} x`),
      fc.string({ maxLength: 30 }),
      fc.constantFrom('mailto:a@b.c', 'javascript:alert(1)', 'https://', 'ftp://x.io/a'),
    );
    fc.assert(
      fc.property(urls, (value) => {
        const ok = accepts(() => checkImage(value));
        // Never more than the contract: what the service takes, REST's schema took first.
        if (ok) expect(imageSchema(value)).toBe(true);
        if (imageSchema(value) && /^https?:\/\/[^/\s]/i.test(value)) expect(ok).toBe(true);
      }),
      { numRuns: 2000 },
    );
    expect(accepts(() => checkImage('javascript:alert(1)'))).toBe(false);
  });
});
