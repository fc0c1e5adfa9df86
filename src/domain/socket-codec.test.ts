import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import {
  base64ToUtf8,
  decodeServerFrame,
  encodeClientFrame,
  encodeServerFrame,
  lowercaseFirst,
  utf8ToBase64,
} from './socket-codec';
import { SERVER_EVENT_NAMES } from './socket-events';

const protocol = readFileSync(new URL('../../contracts/socket.md', import.meta.url), 'utf8');

describe('socket codec', () => {
  it('round-trips any unicode text through base64 and agrees with Node Buffer', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const encoded = utf8ToBase64(text);
        expect(encoded).toBe(Buffer.from(text, 'utf8').toString('base64'));
        expect(base64ToUtf8(encoded)).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });

  it.each([
    ['InstanceUpdated', 'instanceUpdated'],
    ['ChatTicketClosed', 'chatTicketClosed'],
    ['ping', 'ping'],
    ['CUSTOMER', 'cUSTOMER'],
    ['', ''],
  ])('lowercases only the first letter of %s', (input, expected) => {
    expect(lowercaseFirst(input)).toBe(expected);
  });

  it('every event name is documented in contracts/socket.md', () => {
    // A row of the events table whose first cell is the name (cells may be padded for alignment).
    for (const name of SERVER_EVENT_NAMES) expect(protocol).toMatch(new RegExp(`^\\|\\s*\`${name}\`\\s*\\|`, 'm'));
  });

  it('encodes the client ping exactly as the worked example of socket.md', () => {
    const frame = encodeClientFrame({ event: 'ping', tenantName: 'farmacia-central', userId: 2 });
    expect(protocol).toContain(frame);
    const parsed = JSON.parse(frame) as { action: string; data: string };
    expect(parsed.action).toBe('sendmessage');
    expect(JSON.parse(base64ToUtf8(parsed.data))).toEqual({ event: 'ping', tenantName: 'farmacia-central', userId: 2 });
  });

  it('decodes every server frame shown in socket.md §6 into its documented envelope', () => {
    const frames = protocol
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => /^[A-Za-z0-9+/]{40,}=*$/.test(line));
    expect(frames.length).toBeGreaterThanOrEqual(2);
    for (const frame of frames) {
      const result = decodeServerFrame(frame);
      expect(result.ok).toBe(true);
      if (!result.ok) continue;
      const envelope = JSON.parse(Buffer.from(frame, 'base64').toString('utf8')) as { event: string; data: unknown };
      expect(result.event.name).toBe(envelope.event.charAt(0).toLowerCase() + envelope.event.slice(1));
      expect(result.event.data).toEqual(envelope.data);
    }
  });

  it('round-trips server frames for every known event name', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SERVER_EVENT_NAMES),
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.string(),
        (name, data, tenant) => {
          const result = decodeServerFrame(encodeServerFrame(name, data, tenant, '2026-11-22T00:00:00.000Z'));
          expect(result).toEqual({
            ok: true,
            event: {
              name: lowercaseFirst(name),
              data: JSON.parse(JSON.stringify(data)),
              tenantName: tenant,
              sentAt: '2026-11-22T00:00:00.000Z',
            },
          });
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('forwards unknown events flagged as unknown', () => {
    const result = decodeServerFrame(
      utf8ToBase64(JSON.stringify({ event: 'NewThing', data: { a: 1 }, tenantName: 't', sentAt: 'x' })),
    );
    expect(result).toEqual({
      ok: true,
      event: { name: 'newThing', data: { a: 1 }, tenantName: 't', sentAt: 'x', unknown: true },
    });
  });

  it.each([
    ['not base64 at all', '%%%', 'not-base64'],
    ['base64 of text', utf8ToBase64('hello'), 'not-json'],
    ['an array', utf8ToBase64('[1]'), 'bad-envelope'],
    ['no event', utf8ToBase64('{"data":{},"tenantName":"t","sentAt":"x"}'), 'bad-envelope'],
    ['data not an object', utf8ToBase64('{"event":"ping","data":3,"tenantName":"t","sentAt":"x"}'), 'bad-envelope'],
    ['no tenantName', utf8ToBase64('{"event":"ping","data":{},"sentAt":"x"}'), 'bad-envelope'],
  ])('rejects %s without throwing', (_label, frame, reason) => {
    expect(decodeServerFrame(frame)).toEqual({ ok: false, reason });
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(() => decodeServerFrame(s)).not.toThrow();
      }),
      { numRuns: 1000 },
    );
  });
});
