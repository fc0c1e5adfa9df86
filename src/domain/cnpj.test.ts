import { describe, expect, it } from 'vitest';
import {
  cnpjCheckDigits,
  cnpjProblem,
  cnpjSearchFragment,
  formatCnpj,
  isValidCnpj,
  normalizeCnpj,
  type CnpjProblem,
} from './cnpj';

describe('isValidCnpj and cnpjProblem — examples', () => {
  it.each<[string, CnpjProblem | null]>([
    // The example of IN RFB 2.229/2024, bare and masked, in any case.
    ['12.ABC.345/01DE-35', null],
    ['12ABC34501DE35', null],
    ['12abc34501de35', null],
    ['12.abc.345/01De-35', null],
    ['  12.ABC.345/01DE-35 ', null],
    // Worked by hand: A,B,1,2,C,D,3,4,0,0,0,1 are worth 17,18,1,2,19,20,3,4,0,0,0,1;
    // × 5,4,3,2,9,8,7,6,5,4,3,2 → 85+72+3+4+171+160+21+24+0+0+0+2 = 542 = 11·49 + 3 → 11 − 3 = 8;
    // then × 6,5,4,3,2,9,8,7,6,5,4,3,2 over the base and 8 → 102+90+4+6+38+180+24+28+0+0+0+3+16 = 491
    // = 11·44 + 7 → 11 − 7 = 4.
    ['AB.12C.D34/0001-84', null],
    // Numeric CNPJs keep validating (the repository's tests and seed).
    ['11.222.333/0001-81', null],
    ['11222333000181', null],
    ['00.000.000/0001-91', null], // Banco do Brasil
    ['33.000.167/0001-01', null], // Petrobras
    ['11.444.777/0001-61', null],
    ['45.723.174/0001-10', null],
    // Wrong check digits.
    ['12.ABC.345/01DE-36', 'checkDigits'],
    ['12.ABC.345/01DE-53', 'checkDigits'],
    ['12ABC34501DF35', 'checkDigits'], // one letter of the base changed
    ['AB.12C.D34/0001-48', 'checkDigits'],
    ['11.222.333/0001-82', 'checkDigits'],
    ['11.222.333/0001-18', 'checkDigits'],
    // The check digits are numbers.
    ['12.ABC.345/01DE-3A', 'checkDigitLetter'],
    ['12ABC34501DEAB', 'checkDigitLetter'],
    ['12abc34501de3f', 'checkDigitLetter'],
    // Half-masked, mask marks out of place, other characters.
    ['12.ABC.345/01DE35', 'format'],
    ['12ABC.345/01DE-35', 'format'],
    ['12.ABC.34501DE-35', 'format'],
    ['12-ABC-345/01DE.35', 'format'],
    ['11.222.333/000181', 'format'],
    ['CNPJ 12ABC34501DE35', 'format'],
    ['12 ABC 345 01DE 35', 'format'],
    ['12.ÀBC.345/01DE-35', 'format'],
    ['12ſBC34501DE35', 'format'], // 'ſ'.toUpperCase() is 'S': a non-ASCII letter never counts
    ['１１２２２３３３０００１８１', 'format'], // full-width digits
    // Not 14 letters and digits.
    ['12ABC34501DE3', 'length'],
    ['12ABC34501DE355', 'length'],
    ['1122233300018', 'length'],
    ['', 'length'],
    // One character repeated in the base: passes the modulus, never issued.
    ['00000000000000', 'repeated'],
    ['00.000.000/0000-00', 'repeated'],
    ['11111111111180', 'repeated'], // 1 × (5+4+3+2+9+8+7+6+5+4+3+2 = 58) = 11·5 + 3 → 8; 62 + 8·2 = 78 = 11·7 + 1 → 0
    ['AAAAAAAAAAAA45', 'repeated'], // 17 × 58 = 986 = 11·89 + 7 → 4; 17 × 62 + 4·2 = 1062 = 11·96 + 6 → 5
    ['11111111111111', 'repeated'], // said first, whatever the check digits
  ])('%j → %s', (value, problem) => {
    expect(cnpjProblem(value)).toBe(problem);
    expect(isValidCnpj(value)).toBe(problem === null);
  });

  it('inherits mod-11 blind spot: a CNPJ ending in 00 can survive a one-character change', () => {
    // Remainders 0 and 1 both give check digit 0, so when both check digits are 0
    // some single-character edits go unnoticed. Found by brute force; kept as a fact.
    expect(isValidCnpj('69578058341700')).toBe(true);
    expect(isValidCnpj('89578058341700')).toBe(true);
  });
});

describe('cnpjCheckDigits, normalizeCnpj and formatCnpj — examples', () => {
  it.each<[string, string]>([
    ['12ABC34501DE', '35'],
    ['12abc34501de', '35'],
    ['AB12CD340001', '84'],
    ['112223330001', '81'],
    ['000000000001', '91'],
    ['330001670001', '01'],
  ])('%s → %s', (base, digits) => {
    expect(cnpjCheckDigits(base)).toBe(digits);
  });

  it('rejects a base that is not 12 letters or digits', () => {
    expect(() => cnpjCheckDigits('11222333000')).toThrow(RangeError);
    expect(() => cnpjCheckDigits('1122233300012')).toThrow(RangeError);
    expect(() => cnpjCheckDigits('12.ABC.345/0')).toThrow(RangeError);
    expect(() => cnpjCheckDigits('12ÀBC34501DE')).toThrow(RangeError);
  });

  it.each<[string, string]>([
    ['12ABC34501DE35', '12.ABC.345/01DE-35'],
    ['12abc34501de35', '12.ABC.345/01DE-35'],
    ['12.abc.345/01de-35', '12.ABC.345/01DE-35'],
    ['11222333000181', '11.222.333/0001-81'],
    ['11.222.333/0001-81', '11.222.333/0001-81'],
    ['1122233300018199', '11.222.333/0001-81'],
    ['', ''],
    ['1', '1'],
    ['12a', '12.A'],
    ['112', '11.2'],
    ['11222', '11.222'],
    ['112223', '11.222.3'],
    ['112223330', '11.222.333/0'],
    ['1122233300018', '11.222.333/0001-8'],
    ['ab11c', 'AB.11C'],
    // A letter where a check digit goes is dropped, as typed or pasted.
    ['12ABC34501DEX', '12.ABC.345/01DE'],
    ['12ABC34501DE3X5', '12.ABC.345/01DE-35'],
    ['12.ÀBC', '12.BC'],
  ])('formatCnpj(%j) → %j', (input, expected) => {
    expect(formatCnpj(input)).toBe(expected);
  });

  it('normalizeCnpj keeps only ASCII letters, upper-cased, and digits', () => {
    expect(normalizeCnpj(' 11.222.333/0001-81 ')).toBe('11222333000181');
    expect(normalizeCnpj('12.abc.345/01de-35')).toBe('12ABC34501DE35');
    expect(normalizeCnpj('ſ-ı-é')).toBe('');
  });
});

describe('cnpjSearchFragment — what reads as part of a CNPJ', () => {
  it.each<[string, string]>([
    ['12ABC', '12ABC'],
    ['12.ABC', '12.ABC'],
    ['12.abc', '12.ABC'],
    ['abc.345', 'ABC.345'],
    ['ABC345/01', 'ABC345/01'],
    ['abc345', 'ABC345'],
    ['01de-35', '01DE-35'],
    ['12.abc.345/01de-35', '12.ABC.345/01DE-35'],
    ['12abc34501de35', '12ABC34501DE35'],
    ['4567', '4567'],
    ['.123.', '.123.'],
    ['0001-81', '0001-81'],
    ['11 222', '11222'],
    [' 11.222.333 ', '11.222.333'],
    ['12/ABC', '12/ABC'],
    ['ABC.DEF', 'ABC.DEF'], // no digit, but a '.' no tenant name holds
    // A name with a digit may be the end of a base and a check digit: searched both ways.
    ['loja-2', 'LOJA-2'],
  ])('%j reads as %j', (search, fragment) => {
    expect(cnpjSearchFragment(search)).toBe(fragment);
  });

  it.each([
    'farmacia', // letters alone: a name
    'GAMA',
    'farmacia-central',
    'busca-alfa-00', // two hyphens: the mask has one
    'boa-vista-12',
    'alfa-00 10.', // runs past the mask's end wherever it starts
    '12ABC34501DE35X', // 15 characters
    '123456789012345',
    '12ABC34501DEX', // a letter in a check-digit place
    '12.ABC.345/01DEX',
    '12..ABC', // two marks in a row
    '-',
    '.',
    '',
    '%',
    'busca_alfa',
    '12ÀBC',
  ])('%j does not', (search) => {
    expect(cnpjSearchFragment(search)).toBeNull();
  });
});
