import { createRequestActivity } from './request-activity';

describe('request activity', () => {
  it('counts requests while in flight, failures included, and tells listeners', async () => {
    const activity = createRequestActivity();
    const seen: number[] = [];
    const stop = activity.subscribe(() => seen.push(activity.pending()));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const ok = activity.track(async () => {
      await held;
      return new Response('{}');
    });
    const failing = activity.track(() => Promise.reject(new Error('offline')));
    const first = ok(new Request('http://x.test/a'));
    const second = failing(new Request('http://x.test/b')).catch(() => 'failed');
    expect(activity.pending()).toBe(2);
    expect(await second).toBe('failed');
    expect(activity.pending()).toBe(1);
    release();
    await first;
    expect(activity.pending()).toBe(0);
    expect(seen).toEqual([1, 2, 1, 0]);
    stop();
  });
});
