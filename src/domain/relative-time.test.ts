import { formatRelativeTime, formatWait } from './relative-time';

const NOW = Date.parse('2026-11-28T10:00:00.000Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

describe('formatRelativeTime', () => {
  it.each<[number, string, string]>([
    [0, 'pt-BR', 'agora'],
    [30, 'pt-BR', 'há 30 segundos'],
    [59 * 60, 'pt-BR', 'há 59 minutos'],
    [3600, 'pt-BR', 'há 1 hora'],
    [24 * 3600, 'pt-BR', 'ontem'],
    [3 * 24 * 3600, 'pt-BR', 'há 3 dias'],
    [400 * 24 * 3600, 'pt-BR', 'ano passado'],
    [2 * 3600, 'en', '2 hours ago'],
    [-2 * 3600, 'en', 'in 2 hours'],
  ])('%ss ago in %s reads "%s"', (seconds, locale, expected) => {
    expect(formatRelativeTime(ago(seconds), NOW, locale)).toBe(expected);
  });

  it('says nothing of an invalid instant', () => {
    expect(formatRelativeTime('not a date', NOW, 'pt-BR')).toBe('');
  });
});

describe('formatWait', () => {
  it('rounds a wait up to the minute, and shows hours with minutes', () => {
    expect(formatWait(840, 'pt-BR')).toBe('14 min');
    expect(formatWait(841, 'pt-BR')).toBe('15 min');
    expect(formatWait(3900, 'en')).toBe('1 hr 5 min');
    expect(formatWait(3600, 'en')).toBe('1 hr');
    expect(formatWait(12, 'en')).toBe('12 sec');
    expect(formatWait(0, 'en')).toBe('1 sec');
  });
});
