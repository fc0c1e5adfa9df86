import { maskedFragmentPattern } from './search';

/** The pattern that checks, on the rows the trigram index found, the marks a CNPJ search kept. */
describe('maskedFragmentPattern', () => {
  it.each([
    ['ABC345/01', 'A[./-]?B[./-]?C[./-]?3[./-]?4[./-]?5/0[./-]?1'],
    ['.123.', '\\.1[./-]?2[./-]?3\\.'],
    ['LOJA-2', 'L[./-]?O[./-]?J[./-]?A-2'],
    ['1', '1'],
  ])('%j → %s', (fragment, pattern) => {
    expect(maskedFragmentPattern(fragment)).toBe(pattern);
  });

  it.each<[string, boolean]>([
    ['12ABC', true],
    ['12.ABC', true],
    ['ABC345/01', true],
    ['ABC.345/01', true],
    ['01DE-35', true],
    ['01DE35', true],
    ['12ABC34501DE35', true],
    ['12.ABC.345/01DE-35', true],
    ['ABC345-01', false], // a '-' where the mask has '/'
    ['12.ABC.345.01', false],
    ['0001-35', false],
    ['LOJA-2', false],
  ])('on 12.ABC.345/01DE-35, %j → %s', (fragment, found) => {
    expect(new RegExp(maskedFragmentPattern(fragment)).test('12.ABC.345/01DE-35')).toBe(found);
  });
});
