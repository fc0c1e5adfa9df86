import { readAuditValue } from './audit-values';

describe('readAuditValue', () => {
  it('reads the JSON text of a before/after value for the detail', () => {
    expect(readAuditValue(null)).toEqual({ kind: 'empty' });
    expect(readAuditValue('null')).toEqual({ kind: 'empty' });
    expect(readAuditValue('true')).toEqual({ kind: 'boolean', value: true });
    expect(readAuditValue('false')).toEqual({ kind: 'boolean', value: false });
    expect(readAuditValue('"enterprise"')).toEqual({ kind: 'text', text: 'enterprise' });
    expect(readAuditValue('200')).toEqual({ kind: 'text', text: '200' });
    expect(readAuditValue('["chat","webhooks",3]')).toEqual({ kind: 'list', items: ['chat', 'webhooks', '3'] });
    expect(readAuditValue('[]')).toEqual({ kind: 'list', items: [] });
    expect(readAuditValue('{"a":1}')).toEqual({ kind: 'text', text: '{"a":1}' });
    expect(readAuditValue('not json')).toEqual({ kind: 'text', text: 'not json' });
  });
});
