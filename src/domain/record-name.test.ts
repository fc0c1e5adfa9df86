import { RECORD_NAME_MAX_LENGTH, recordNameProblem, sameName } from './record-name';

describe('recordNameProblem', () => {
  it.each<[string, string, readonly string[], ReturnType<typeof recordNameProblem>]>([
    ['a fresh name', 'Compras', ['Atendimento'], null],
    ['blank', '   ', [], 'blank'],
    ['empty', '', [], 'blank'],
    ['81 characters', 'x'.repeat(RECORD_NAME_MAX_LENGTH + 1), [], 'tooLong'],
    ['80 characters', 'x'.repeat(RECORD_NAME_MAX_LENGTH), [], null],
    ['80 characters counted as code points', '𝒜'.repeat(RECORD_NAME_MAX_LENGTH), [], null],
    ['taken in another case', ' compras ', ['Compras'], 'taken'],
    ['taken with accents in another case', 'FINANCEIRO E COBRANÇA', ['Financeiro e cobrança'], 'taken'],
  ])('%s', (_label, value, others, expected) => {
    expect(recordNameProblem(value, others)).toBe(expected);
  });

  it('compares names trimmed and ignoring case', () => {
    expect(sameName(' Balcão', 'BALCÃO ')).toBe(true);
    expect(sameName('Balcão', 'Balcao')).toBe(false);
  });
});
