import fc from 'fast-check';
import { type DepartmentRef, type InstancesRef, type RoleRef, type UserFields } from './parity-step-data';

// ------------------------------------------------------------------------------------------------------
// Arbitraries
// ------------------------------------------------------------------------------------------------------

/** Flips the case of letters by the bits of `bits` (0: as given), so shrinking walks back to the plain value. */
const recase = (value: string, bits: number): string =>
  [...value]
    .map((c, i) => ((bits >> (i % 30)) & 1 ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c))
    .join('');

const withCase = (values: readonly string[]) =>
  fc.tuple(fc.constantFrom(...values), fc.nat()).map(([v, bits]) => recase(v, bits));

/** Addresses new users take, and fixture addresses (taken, or free again: gone.a was deleted). */
export const FRESH_EMAILS = ['ana@parity.test', 'bia@parity.test', 'caio.x@parity.test', 'duda+1@parity.test'] as const;
export const TAKEN_EMAILS = [
  'op.a@parity.test',
  'admin.b@parity.test',
  'admin@demo.local',
  'spare.bo@parity.test',
  'blocked.a@parity.test',
] as const;
export const FREED_EMAILS = ['gone.a@parity.test'] as const;

/**
 * Each field's values, split by the contracts' VALUE rules (contracts/openapi.yaml `Username`,
 * `PersonName`, `Email`, `Password`, `UserUpdate.image`; the same rules in contracts/schema.graphql's
 * argument descriptions; for passwords also the strength rule of src/domain/password-strength.ts):
 * `good` values break none (a good value may still be taken: duplicates are state, not value), `bad`
 * values break one.
 */
interface Pools<T> {
  good: fc.Arbitrary<T>;
  bad: fc.Arbitrary<T>;
}

const LONGEST_EMAIL = `${'x'.repeat(64)}@${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(58)}.tt`;

export const EMAIL: Pools<string> = {
  good: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...FRESH_EMAILS) },
    { weight: 3, arbitrary: withCase([...FRESH_EMAILS, ...TAKEN_EMAILS, ...FREED_EMAILS]) },
    { weight: 2, arbitrary: fc.constantFrom(...TAKEN_EMAILS, ...FREED_EMAILS) },
    { weight: 1, arbitrary: fc.constantFrom('a@b.c', "o'brien+tag@parity.test", LONGEST_EMAIL) },
  ),
  bad: fc.constantFrom(
    'no-at-sign',
    'a@b',
    'ana@@parity.test',
    'ana@parity..test',
    'ana@-parity.test',
    'ção@parity.test',
    'an a@parity.test',
    ' ana@parity.test',
    'ana@parity.test ',
    `${LONGEST_EMAIL}t`,
    'ana\u0000@parity.test',
  ),
};

/** Usernames: a small pool (so duplicates happen, in any case), fixture usernames, and values off the pattern. */
export const USERNAME: Pools<string> = {
  good: fc.oneof(
    { weight: 6, arbitrary: withCase(['ana', 'bia.x', 'caio_9', 'duda-1', 'op.a', 'admin.a', 'spare.bo', 'gone.a']) },
    { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9._-]{3,40}$/) },
    { weight: 1, arbitrary: fc.constantFrom('abc', 'a'.repeat(40)) },
  ),
  bad: fc.constantFrom('ab', 'a'.repeat(41), 'a b', 'ação', '', 'ana!', 'ana\u0000', ' ana', 'ana '),
};

/** Names: Unicode (emoji, combining marks, RTL, a lone surrogate), surrounding space, at and past 120 characters, blank. */
export const NAME: Pools<string> = {
  good: fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        'Ana Souza',
        'Zoë 👩‍💻 Ñandú',
        'João da Silva',
        'محمد',
        'e\u0301mile',
        '李小龙',
        '\u200bzero',
      ),
    },
    {
      weight: 2,
      arbitrary: fc
        .string({ unit: 'grapheme', minLength: 1, maxLength: 30 })
        .filter((v) => v.trim().length > 0 && !v.includes('\u0000')),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '  Ana  ',
        '\tAna\n',
        '\u00a0Ana\u2003',
        'x'.repeat(120),
        '😀'.repeat(120),
        ` ${'y'.repeat(118)} `,
        '\ud800lone',
      ),
    },
  ),
  bad: fc.constantFrom(
    '   ',
    '',
    '\u00a0\u2003',
    '\t\n',
    'x'.repeat(121),
    '😀'.repeat(121),
    ` ${'y'.repeat(119)} `,
    'a\u0000b',
  ),
};

/** Passwords: strong; weak (runs, sequences), short, past 128 (characters, or UTF-16 units), NUL. */
export const PASSWORD: Pools<string> = {
  good: fc.constantFrom(
    'Parity#Pass-1x',
    'Outra$Senha-72',
    'Ünïcødé-Sênha-9',
    'Zz!9Yy@8Xx#7',
    'Ab1#'.repeat(32),
    'Ab1#🔑'.repeat(21),
  ),
  bad: fc.constantFrom(
    'aaaB#9xy',
    'Xy#12345',
    'abcXy#9!',
    'Short1!',
    '',
    'Ab1#'.repeat(32) + 'Z',
    '🔑'.repeat(7),
    '🔑Ab#9'.repeat(22),
    'Pass\u0000word#9',
  ),
};

export const IMAGE: Pools<string | null> = {
  good: fc.constantFrom(
    null,
    'https://cdn.parity.test/a.png',
    'http://parity.test/x?y=1#z',
    `https://parity.test/${'p'.repeat(2048 - 'https://parity.test/'.length)}`,
  ),
  bad: fc.constantFrom(
    'ftp://parity.test/a.png',
    'not a url',
    '/relative.png',
    `https://parity.test/${'p'.repeat(2049 - 'https://parity.test/'.length)}`,
  ),
};

export const roleArb: fc.Arbitrary<RoleRef> = fc.constantFrom<RoleRef>(
  'operator',
  'operator',
  'operator',
  'admin',
  'admin',
  'manager',
  'unknown',
);

export const departmentArb: fc.Arbitrary<DepartmentRef> = fc.oneof(
  { weight: 2, arbitrary: fc.constant<DepartmentRef>({ none: true }) },
  { weight: 4, arbitrary: fc.nat(3).map<DepartmentRef>((own) => ({ own })) },
  { weight: 1, arbitrary: fc.constantFrom<DepartmentRef>({ other: true }, { unknown: true }) },
);

export const instancesArb: fc.Arbitrary<InstancesRef> = fc
  .tuple(
    fc.uniqueArray(fc.nat(3), { maxLength: 3 }),
    fc.constantFrom<'other' | 'unknown' | undefined>(undefined, undefined, undefined, 'other', 'unknown'),
  )
  .map(([own, extra]) => (extra === undefined ? { own } : { own, extra }));

/** How many fields of one step may hold a bad value. */
export const MAX_BAD_FIELDS = 4;

type TextField = 'username' | 'name' | 'email' | 'password' | 'image';
const POOLS: Readonly<Record<TextField, Pools<string | null>>> = {
  username: USERNAME,
  name: NAME,
  email: EMAIL,
  password: PASSWORD,
  image: IMAGE,
};

/** Good values for `fields`, then (one case in two) up to `maxBad` of them replaced by bad ones. */
function textFields<K extends TextField>(fields: readonly K[], maxBad: number): fc.Arbitrary<Record<K, string>> {
  const record = (model: [K, fc.Arbitrary<string | null>][]) =>
    fc.record(Object.fromEntries(model) as Record<string, fc.Arbitrary<string>>) as unknown as fc.Arbitrary<
      Record<K, string>
    >;
  const good = record(fields.map((f) => [f, POOLS[f].good]));
  if (maxBad === 0) return good;
  const bad = fc
    .uniqueArray(fc.constantFrom(...fields), { minLength: 1, maxLength: maxBad })
    .chain((which) => record(which.map((f) => [f, POOLS[f].bad])));
  return fc
    .tuple(good, fc.oneof({ weight: 1, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: bad }))
    .map(([g, b]) => ({ ...g, ...b }));
}

export const createFieldsArb = fc
  .tuple(
    textFields(['username', 'name', 'email', 'password'] as const, MAX_BAD_FIELDS),
    roleArb,
    fc.option(departmentArb, { nil: undefined }),
    fc.option(instancesArb, { nil: undefined }),
  )
  .map(([text, role, department, instances]) => ({
    ...text,
    role,
    ...(department === undefined ? {} : { department }),
    ...(instances === undefined ? {} : { instances }),
  }));

/** Fields of an update: all good (`maxBad` 0), or up to `maxBad` bad values. */
export function updateFieldsArb(maxBad: number): fc.Arbitrary<UserFields> {
  return fc
    .tuple(
      textFields(['username', 'name', 'email', 'image'] as const, maxBad),
      roleArb,
      fc.boolean(),
      fc.option(departmentArb, { nil: undefined }),
      fc.option(instancesArb, { nil: undefined }),
    )
    .map(([{ image, ...text }, role, withImage, department, instances]) => ({
      ...text,
      role,
      ...(withImage ? { image: image as string | null } : {}),
      ...(department === undefined ? {} : { department }),
      ...(instances === undefined ? {} : { instances }),
    }));
}

/** A password for the password cases: mostly good, sometimes bad. */
export const passwordArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: PASSWORD.good },
  { weight: 1, arbitrary: PASSWORD.bad },
);
