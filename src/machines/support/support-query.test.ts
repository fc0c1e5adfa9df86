import { MAX_QUERY_LENGTH, normaliseQuery, parseSupportQuery, serializeSupportQuery } from './support-query';

describe('support search query in the address', () => {
  it('reads q, trimmed; nothing or blanks read as no query', () => {
    expect(parseSupportQuery('?q=%20Ana%20')).toBe('Ana');
    expect(parseSupportQuery('q=jos%C3%A9')).toBe('josé');
    expect(parseSupportQuery('')).toBe('');
    expect(parseSupportQuery('?q=%20%20')).toBe('');
    expect(parseSupportQuery('?other=1')).toBe('');
  });

  it('cuts a query to the server limit in code points, never inside a surrogate pair', () => {
    const long = '😀'.repeat(MAX_QUERY_LENGTH + 5);
    const cut = normaliseQuery(long);
    expect(Array.from(cut)).toHaveLength(MAX_QUERY_LENGTH);
    expect(cut.endsWith('😀')).toBe(true);
  });

  it('writes what it reads back', () => {
    for (const q of ['ana', 'a b&c=d', 'josé@farmácia.com.br', '']) {
      expect(parseSupportQuery(serializeSupportQuery(q))).toBe(q);
    }
    expect(serializeSupportQuery('')).toBe('');
  });
});
