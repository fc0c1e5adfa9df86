import fc from 'fast-check';
import { deref, refName, typeOf, type Schema } from './openapi-schema';

/**
 * fast-check arbitraries derived from the JSON schemas of contracts/openapi.yaml, for the contract
 * fuzzer. `validArbitrary` aims at values the schema accepts (the fuzzer still classifies every
 * generated request with the contract's own validator, so an arbitrary that strays is harmless);
 * `invalidArbitrary` breaks a valid value in one place: a wrong type, a missing required property, an
 * extra property, a string past its length, a number past its range, an overflowing number.
 *
 * Strings mix printable text, full Unicode (combining marks, emoji, right-to-left overrides,
 * zero-width characters), lengths up to the limit, and hostile payloads (SQL injection, script
 * injection, template injection): a valid string is a valid string, whatever it says.
 */

export const HOSTILE_STRINGS = [
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '" OR 1=1 --',
  '1; SELECT pg_sleep(10)--',
  "%' UNION SELECT password_hash, email FROM users --",
  "Robert'); DELETE FROM tenants; --",
  '$$; drop schema public cascade; $$',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(document.cookie)',
  '{{constructor.constructor("return process")().exit()}}',
  '${7*7}',
  '../../../../etc/passwd',
  '\u202Egnp.exe',
  'a\u200Bb\u200Dc\uFEFF',
  'Ação, coração, pão — ñ ü ß',
  '👨‍👩‍👧‍👦🏳️‍🌈',
  'ｆｕｌｌｗｉｄｔｈ',
  'e\u0301\u0301\u0301\u0301',
  '\\',
  '%00',
  'nul\u0000byte',
  '\r\n\tline',
];

/** Numbers that overflow int32, lose precision as doubles, or are negative zero. */
export const OVERFLOWING_NUMBERS = [
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 + 2,
  -(2 ** 53) - 2,
  1e308,
  -1e308,
  1e-308,
  -0,
  0.1 + 0.2,
];

/** Per component name (`Id`, `TenantName`, …): values that exist in the database, to reach past "not found". */
export type Hints = Partial<Record<string, fc.Arbitrary<unknown>>>;

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

function stringArbitrary(s: Schema): fc.Arbitrary<string> {
  const minLength = s.minLength ?? 0;
  const maxLength = s.maxLength;
  if (s.enum) return fc.constantFrom(...(s.enum as string[]));
  switch (s.format) {
    case 'date':
      return fc
        .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true })
        .map(isoDay);
    case 'date-time':
      return fc
        .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'email':
      return fc.emailAddress().filter((e) => e.length >= minLength && e.length <= (maxLength ?? 254));
    case 'uri':
      return fc.webUrl().filter((u) => u.length <= (maxLength ?? 2048));
    case 'ipv4':
      return fc.ipV4();
    case 'ipv6':
      return fc.ipV6();
    default:
      break;
  }
  if (s.pattern) {
    return fc
      .stringMatching(new RegExp(s.pattern))
      .filter((v) => v.length >= minLength && (maxLength === undefined || v.length <= maxLength));
  }
  const cap = maxLength ?? 300;
  const fits = (v: string) => v.length >= minLength && v.length <= cap;
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength, maxLength: Math.min(cap, 40) }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength: Math.min(cap, 20) }).filter(fits) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_STRINGS).filter(fits) },
    // Exactly at the limit.
    { weight: 1, arbitrary: fc.constant('x'.repeat(Math.max(minLength, cap))) },
  );
}

/** Values the schema accepts (mostly: see the module comment). */
export function validArbitrary(schema: Schema, hints: Hints = {}, depth = 0): fc.Arbitrary<unknown> {
  const hint = hints[refName(schema) ?? ''];
  const s = deref(schema);
  const generic = genericValid(s, hints, depth);
  return hint ? fc.oneof({ weight: 3, arbitrary: hint }, { weight: 1, arbitrary: generic }) : generic;
}

function genericValid(s: Schema, hints: Hints, depth: number): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const branches = s.oneOf ?? s.anyOf;
  if (branches) return fc.oneof(...branches.map((b) => validArbitrary(b, hints, depth + 1)));
  const nullable = Array.isArray(s.type) && s.type.includes('null');
  const base = ((): fc.Arbitrary<unknown> => {
    switch (typeOf(s)) {
      case 'integer': {
        const min = s.minimum ?? -(2 ** 31);
        const max = s.maximum ?? 2 ** 31 - 1;
        return fc.oneof(
          fc.integer({ min, max: Math.min(max, min + 50) }),
          fc.integer({ min, max }),
          fc.constantFrom(min, max),
        );
      }
      case 'number':
        return fc.double({ min: s.minimum ?? -1e9, max: s.maximum ?? 1e9, noNaN: true, noDefaultInfinity: true });
      case 'boolean':
        return fc.boolean();
      case 'string':
        return stringArbitrary(s);
      case 'array': {
        const items = validArbitrary(s.items ?? {}, hints, depth + 1);
        const constraints = { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 5, 5) };
        return s.uniqueItems
          ? fc.uniqueArray(items, { ...constraints, selector: (v) => JSON.stringify(v) })
          : fc.array(items, constraints);
      }
      case 'object': {
        const properties = s.properties ?? {};
        const model = Object.fromEntries(
          Object.entries(properties).map(([key, value]) => [key, validArbitrary(value, hints, depth + 1)]),
        );
        return fc
          .record(model, { requiredKeys: s.required ?? [] })
          .filter((v) => Object.keys(v).length >= (s.minProperties ?? 0));
      }
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  })();
  return nullable ? fc.option(base, { nil: null, freq: 4 }) : base;
}

/** One thing wrong with a value of `s`, at the top level. */
function wrongLeaf(s: Schema): fc.Arbitrary<unknown> {
  const options: fc.Arbitrary<unknown>[] = [
    fc.constantFrom<unknown>({ nested: { deeper: [1, 'two', null] } }, [[['deep']]]),
  ];
  switch (typeOf(s)) {
    case 'integer':
    case 'number':
      options.push(fc.constantFrom<unknown>('12', '1e3', true, [1], ...OVERFLOWING_NUMBERS));
      if (typeOf(s) === 'integer')
        options.push(fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)));
      if (s.minimum !== undefined) options.push(fc.integer({ min: -(2 ** 31), max: s.minimum - 1 }));
      if (s.maximum !== undefined) options.push(fc.integer({ min: s.maximum + 1, max: 2 ** 31 }));
      break;
    case 'boolean':
      options.push(fc.constantFrom<unknown>('true', 0, 1, 'yes', 'null'));
      break;
    case 'string':
      options.push(fc.constantFrom<unknown>(12345, false, ['x'], { s: 'x' }));
      if (s.maxLength !== undefined)
        options.push(fc.constantFrom(`${'y'.repeat(s.maxLength + 1)}`, 'z'.repeat(100_000)));
      if (s.minLength !== undefined && s.minLength > 0) options.push(fc.constant(''));
      if (s.pattern) options.push(fc.constantFrom(...HOSTILE_STRINGS));
      if (s.enum) options.push(fc.constantFrom('NOT-IN-ENUM', String(s.enum[0]).toUpperCase() + '!'));
      if (s.format === 'date')
        options.push(
          fc.constantFrom('2026-02-30', '2026-13-01', '26-01-01', '2026-1-1', 'today', '2026-01-01T00:00:00Z'),
        );
      if (s.format === 'email')
        options.push(fc.constantFrom('no-at-sign', '@nobody', 'a@', 'a b@c.d', HOSTILE_STRINGS[0] ?? ''));
      break;
    case 'array':
      options.push(fc.constantFrom<unknown>('not-an-array', { 0: 'x' }, 7));
      if (s.maxItems !== undefined) options.push(fc.constant(Array.from({ length: s.maxItems + 1 }, (_, i) => i + 1)));
      break;
    case 'object':
      options.push(fc.constantFrom<unknown>('not-an-object', [1, 2], 0));
      break;
    default:
      break;
  }
  return fc.oneof(...options);
}

/**
 * A valid value of `schema` broken in one place: the whole value replaced by a wrong one, or for an
 * object one property wrong, one required property missing, or one property too many.
 */
export function invalidArbitrary(schema: Schema, hints: Hints = {}): fc.Arbitrary<unknown> {
  const s = deref(schema);
  const whole = wrongLeaf(s);
  if (typeOf(s) !== 'object' || !s.properties) return whole;
  const properties = s.properties;
  const keys = Object.keys(properties);
  return validArbitrary(schema, hints).chain((valid) => {
    const object = (typeof valid === 'object' && valid !== null ? valid : {}) as Record<string, unknown>;
    const mutations: fc.Arbitrary<unknown>[] = [
      whole,
      fc.constantFrom('sneaky', '__proto__x', 'constructor', 'ΩΩ').map((extra) => ({ ...object, [extra]: 'extra' })),
    ];
    if (keys.length > 0) {
      mutations.push(
        fc
          .constantFrom(...keys)
          .chain((key) => wrongLeaf(deref(properties[key] ?? {})).map((wrong) => ({ ...object, [key]: wrong }))),
      );
    }
    const required = s.required ?? [];
    if (required.length > 0) {
      mutations.push(
        fc.constantFrom(...required).map((key) => {
          const { [key]: _dropped, ...rest } = object;
          return rest;
        }),
      );
    }
    return fc.oneof(...mutations);
  });
}

/** A text value for a query or path parameter that no reading of the schema accepts, or a hostile one. */
export function invalidText(schema: Schema): fc.Arbitrary<string> {
  const s = deref(schema);
  const options: fc.Arbitrary<string>[] = [fc.constantFrom(...HOSTILE_STRINGS)];
  switch (typeOf(s)) {
    case 'integer':
    case 'number':
      options.push(
        fc.constantFrom(
          'abc',
          '1.5',
          '99999999999999999999999',
          '-1',
          '0x10',
          '1e999',
          '',
          ' ',
          'NaN',
          'Infinity',
          '١٢',
        ),
      );
      break;
    case 'boolean':
      options.push(fc.constantFrom('maybe', 'TRUE!', '2', 'yes please'));
      break;
    case 'string':
      if (s.maxLength !== undefined) options.push(fc.constant('q'.repeat(s.maxLength + 1)));
      if (s.format === 'date') options.push(fc.constantFrom('2026-02-30', '2026-00-10', 'yesterday', '20260101'));
      break;
    default:
      break;
  }
  return fc.oneof(...options);
}
