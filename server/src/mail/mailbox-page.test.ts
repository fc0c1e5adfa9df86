import { startTestApp, type TestApp } from '../test-support/app';
import { MAILBOX_PATH } from './mailbox-page';

/** `/dev/mailbox` (docs/operations.md, Mail): in development without SMTP_URL only. */
describe('the development mailbox page', () => {
  let dev: TestApp;
  let production: TestApp;

  beforeAll(async () => {
    dev = await startTestApp({ seed: { days: 1 }, config: { smtpUrl: undefined, production: false } });
    production = await startTestApp({ seed: { days: 1 }, config: { smtpUrl: undefined, production: true } });
  }, 120_000);

  afterAll(async () => {
    await dev?.close();
    await production?.close();
  });

  it('lists the messages the server sent, each openable, every value escaped', async () => {
    // A user whose name is markup asks for a link through the public operation.
    await dev.db
      .updateTable('users')
      .set({ name: '<b>Ana</b> & "Bia"' })
      .where('email', '=', 'operador@demo.local')
      .execute();
    const asked = await dev.app.fastify.inject({
      method: 'POST',
      url: '/api/auth/password-reset/request',
      payload: { email: 'operador@demo.local', locale: 'en' },
    });
    expect(asked.statusCode).toBe(202);
    let list = '';
    for (let i = 0; i < 100 && !list.includes('operador@demo.local'); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      list = (await dev.app.fastify.inject({ method: 'GET', url: MAILBOX_PATH })).body;
    }
    expect(list).toContain('operador@demo.local');
    expect(list).toContain('Reset your panel password');
    const href = /href="(\/dev\/mailbox\/\d+)"/.exec(list)?.[1];
    expect(href).toBeDefined();
    const one = await dev.app.fastify.inject({ method: 'GET', url: href ?? '' });
    expect(one.statusCode).toBe(200);
    expect(one.headers['content-type']).toMatch(/text\/html/);
    expect(one.body).toContain('&lt;b&gt;Ana&lt;/b&gt; &amp;');
    expect(one.body).not.toContain('<b>Ana</b>');
    expect(one.body).toMatch(/reset-password#token=[A-Za-z0-9_-]{86}/);
    const html = await dev.app.fastify.inject({ method: 'GET', url: `${href ?? ''}/html` });
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-security-policy']).toMatch(/^sandbox; default-src 'none'/);
    expect((await dev.app.fastify.inject({ method: 'GET', url: `${MAILBOX_PATH}/999999` })).statusCode).toBe(404);
  });

  it('answers only on this machine: not to another address, nor through a proxy', async () => {
    // It shows every reset link sent: a development server reachable from the network (HOST=0.0.0.0
    // without NODE_ENV=production) must not hand them to whoever reaches its port.
    const asked = await dev.app.fastify.inject({
      method: 'POST',
      url: '/api/auth/password-reset/request',
      payload: { email: 'admin@demo.local', locale: 'en' },
    });
    expect(asked.statusCode).toBe(202);
    await dev.app.background.settled();
    let list = '';
    for (let i = 0; i < 100 && !list.includes('admin@demo.local'); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      list = (await dev.app.fastify.inject({ method: 'GET', url: MAILBOX_PATH, remoteAddress: '::1' })).body;
    }
    const href = /href="(\/dev\/mailbox\/\d+)"/.exec(list)?.[1] ?? '';
    expect(href).not.toBe('');
    for (const url of [MAILBOX_PATH, href, `${href}/html`]) {
      for (const request of [
        { remoteAddress: '192.168.1.20' },
        { remoteAddress: '::ffff:10.0.0.7' },
        { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.9' } },
        { remoteAddress: '127.0.0.1', headers: { forwarded: 'for=203.0.113.9' } },
      ]) {
        const answer = await dev.app.fastify.inject({ method: 'GET', url, ...request });
        expect(answer.statusCode, `${url} ${JSON.stringify(request)}`).toBe(403);
        expect(answer.body).not.toMatch(/token=/);
      }
      expect((await dev.app.fastify.inject({ method: 'GET', url, remoteAddress: '::ffff:127.0.0.1' })).statusCode).toBe(
        200,
      );
    }
  });

  it('does not exist in production, where reset links are disabled', async () => {
    expect((await production.app.fastify.inject({ method: 'GET', url: MAILBOX_PATH })).statusCode).toBe(404);
    const status = await production.app.fastify.inject({ method: 'GET', url: '/api/auth/password-reset' });
    expect(status.json()).toEqual({ enabled: false });
  });
});
