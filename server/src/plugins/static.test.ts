import { mkdtempSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { precompressDir } from '../../../scripts/precompress.mjs';
import { startTestApp, type TestApp } from '../test-support/app';
import { compressPage, isLoginPath, matchesEtag, serveSpa, withSettings } from './static';
import { everyLook, loginPageFile, LOOK_COOKIE } from '../../../src/domain/look-cookie';

/** A built SPA's web root: the empty shell, and each `file` a prerendered page whose `#root` carries `key`. */
function webRootWith(pages: Record<string, string> = {}): string {
  const webRoot = mkdtempSync(join(tmpdir(), 'spa-'));
  mkdirSync(join(webRoot, 'static'));
  writeFileSync(join(webRoot, 'index.html'), '<html><head></head><body><div id="root"></div></body></html>');
  for (const [file, key] of Object.entries(pages))
    writeFileSync(
      join(webRoot, file),
      `<html><head></head><body><div id="root" data-prerendered="${key}"></div></body></html>`,
    );
  return webRoot;
}

describe('SPA index with runtime settings', () => {
  it('injects the settings as an escaped meta, never as script', () => {
    const html = withSettings('<html><head><title>x</title></head><body></body></html>', {
      socketUrl: '/ws',
      ipLookupUrl: 'https://ip.example/?a=1&b="2"',
      passwordResetMail: true,
    });
    expect(html).toContain(
      '<meta name="panel-settings" content="{&quot;socketUrl&quot;:&quot;/ws&quot;,&quot;ipLookupUrl&quot;:&quot;https://ip.example/?a=1&amp;b=\\&quot;2\\&quot;&quot;,&quot;passwordResetMail&quot;:true}" /></head>',
    );
    expect(html).not.toContain('<script');
  });

  it('serves index.html under every tenant path with the settings, and allows the IP service in connect-src', async () => {
    const webRoot = webRootWith();
    const t = await startTestApp({ config: { ipLookupUrl: 'https://api.ipify.org?format=json' } });
    try {
      await serveSpa(t.app.fastify, {
        webRoot,
        backofficeTenant: 'backoffice',
        settings: { socketUrl: '/ws', ipLookupUrl: 'https://api.ipify.org?format=json', passwordResetMail: true },
      });
      const page = await t.app.fastify.inject({ method: 'GET', url: '/farmacia-central/users?x=1' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toContain('name="panel-settings"');
      expect(page.headers['content-security-policy']).toMatch(/connect-src 'self' ws: wss: https:\/\/api\.ipify\.org;/);
      const root = await t.app.fastify.inject({ method: 'GET', url: '/' });
      expect([root.statusCode, root.headers.location]).toEqual([302, '/backoffice/']);
    } finally {
      await t.close();
    }
  }, 60_000);

  it('serves the prerendered login page for the login page only, with the settings', async () => {
    const webRoot = webRootWith();
    writeFileSync(
      join(webRoot, 'login.pt-BR.light.mail.html'),
      '<html><head></head><body><div id="root" data-prerendered="login pt-BR light"><form></form></div></body></html>',
    );
    const t = await startTestApp();
    try {
      await serveSpa(t.app.fastify, {
        webRoot,
        backofficeTenant: 'backoffice',
        settings: { socketUrl: '/ws', ipLookupUrl: '', passwordResetMail: true },
      });
      for (const url of ['/backoffice/login', '/farmacia-central/login?to=%2Ftenants', '/backoffice/login/']) {
        const page = await t.app.fastify.inject({ method: 'GET', url });
        expect([url, page.statusCode]).toEqual([url, 200]);
        expect(page.body).toContain('data-prerendered="login pt-BR light"');
        expect(page.body).toContain('name="panel-settings"');
        expect(page.headers['cache-control']).toBe('no-cache');
      }
      // Every other page — a signed-in user reloading it — gets the empty shell, never a login form.
      for (const url of [
        '/backoffice/',
        '/backoffice/tenants',
        '/backoffice/users?login=1',
        '/backoffice/pages/error-404',
        '/backoffice/login/extra',
        '/backoffice/Login',
      ]) {
        const page = await t.app.fastify.inject({ method: 'GET', url });
        expect([url, page.statusCode]).toEqual([url, 200]);
        expect(page.body).not.toContain('data-prerendered');
        expect(page.body).toContain('<div id="root"></div>');
      }
    } finally {
      await t.close();
    }
  }, 60_000);

  it('serves the no-mail page, whose forgot link says why it is off, when the server cannot send reset links', async () => {
    const webRoot = webRootWith(
      Object.fromEntries(
        everyLook().flatMap((look) =>
          (['mail', 'no-mail'] as const).map((mail) => [
            loginPageFile(look, mail),
            `login ${look.locale} ${look.theme} ${mail}`,
          ]),
        ),
      ),
    );
    for (const passwordResetMail of [true, false]) {
      const t = await startTestApp();
      try {
        await serveSpa(t.app.fastify, {
          webRoot,
          backofficeTenant: 'backoffice',
          settings: { socketUrl: '/ws', ipLookupUrl: '', passwordResetMail },
        });
        const login = await t.app.fastify.inject({ method: 'GET', url: '/backoffice/login' });
        expect(login.body).toContain(`data-prerendered="login pt-BR light ${passwordResetMail ? 'mail' : 'no-mail'}"`);
        expect(login.body).toContain(`&quot;passwordResetMail&quot;:${passwordResetMail}`);
        const other = await t.app.fastify.inject({ method: 'GET', url: '/backoffice/tenants' });
        expect(other.body).toContain('<div id="root"></div>');
      } finally {
        await t.close();
      }
    }
  }, 60_000);

  it("serves the login page in the look the visitor's cookie names, pt-BR light without one or with a bad one", async () => {
    const webRoot = webRootWith(
      Object.fromEntries(everyLook().map((look) => [loginPageFile(look, 'mail'), `${look.locale} ${look.theme}`])),
    );
    const t = await startTestApp();
    try {
      await serveSpa(t.app.fastify, {
        webRoot,
        backofficeTenant: 'backoffice',
        settings: { socketUrl: '/ws', ipLookupUrl: '', passwordResetMail: true },
      });
      const key = async (cookie?: string) => {
        const answer = await t.app.fastify.inject({
          method: 'GET',
          url: '/backoffice/login',
          headers: cookie === undefined ? {} : { cookie },
        });
        expect(answer.headers.vary).toBe('accept-encoding, cookie');
        return /data-prerendered="([^"]*)"/.exec(answer.body)?.[1];
      };
      expect(await key()).toBe('pt-BR light');
      for (const look of everyLook())
        expect(await key(`other=1; ${LOOK_COOKIE}=${look.locale}.${look.theme}; x=y`)).toBe(
          `${look.locale} ${look.theme}`,
        );
      for (const bad of ['en', 'en.dark.x', 'fr.dark', 'en.blue', '', '../en.dark', 'EN.DARK'])
        expect(await key(`${LOOK_COOKIE}=${bad}`), bad).toBe('pt-BR light');
      // Another page never varies with the cookie, nor is it a login form.
      const other = await t.app.fastify.inject({
        method: 'GET',
        url: '/backoffice/tenants',
        headers: { cookie: `${LOOK_COOKIE}=en.dark` },
      });
      expect(other.headers.vary).toBe('accept-encoding');
      expect(other.body).toContain('<div id="root"></div>');
    } finally {
      await t.close();
    }
  }, 60_000);

  it("answers 304 only to the ETag of the page the visitor's cookie names, never another look's or mail's", async () => {
    const webRoot = webRootWith();
    for (const look of everyLook())
      for (const mail of ['mail', 'no-mail'] as const)
        writeFileSync(
          join(webRoot, loginPageFile(look, mail)),
          `<html><head></head><body><div id="root" data-prerendered="${look.locale} ${look.theme} ${mail}"></div></body></html>`,
        );
    const etags = new Map<string, string>();
    for (const passwordResetMail of [true, false]) {
      const t = await startTestApp();
      try {
        await serveSpa(t.app.fastify, {
          webRoot,
          backofficeTenant: 'backoffice',
          settings: { socketUrl: '/ws', ipLookupUrl: '', passwordResetMail },
        });
        const get = (headers: Record<string, string>) =>
          t.app.fastify.inject({ method: 'GET', url: '/backoffice/login', headers });
        for (const look of everyLook())
          for (const encoding of ['identity', 'gzip', 'br']) {
            const cookie = `${LOOK_COOKIE}=${look.locale}.${look.theme}`;
            const answer = await get({ cookie, 'accept-encoding': encoding });
            expect(answer.statusCode).toBe(200);
            etags.set(`${cookie} ${encoding} ${passwordResetMail}`, String(answer.headers.etag));
            expect(
              (await get({ cookie, 'accept-encoding': encoding, 'if-none-match': String(answer.headers.etag) }))
                .statusCode,
            ).toBe(304);
          }
        // Every other page's ETag, sent with this cookie and encoding, gets this page in full.
        for (const [key, etag] of etags) {
          const [cookie = '', encoding = '', mail] = key.split(' ');
          if (mail !== String(passwordResetMail)) continue;
          for (const [otherKey, other] of etags) {
            if (otherKey === key || other === etag) continue;
            const answer = await get({ cookie, 'accept-encoding': encoding, 'if-none-match': other });
            expect(answer.statusCode, `${key} with ${otherKey}'s ETag`).toBe(200);
          }
        }
      } finally {
        await t.close();
      }
    }
    // The twelve pages (6 looks × 2 mails) share no ETag, whatever the encoding.
    const pageOf = (key: string) =>
      key
        .split(' ')
        .filter((_, i) => i !== 1)
        .join(' ');
    for (const [key, etag] of etags)
      for (const [otherKey, other] of etags) if (pageOf(key) !== pageOf(otherKey)) expect(other, key).not.toBe(etag);
  }, 60_000);

  it('serves index.html for the login page too when the build has no prerendered login page', async () => {
    const webRoot = webRootWith();
    const t = await startTestApp();
    try {
      await serveSpa(t.app.fastify, {
        webRoot,
        backofficeTenant: 'backoffice',
        settings: { socketUrl: '/ws', ipLookupUrl: '', passwordResetMail: true },
      });
      const page = await t.app.fastify.inject({ method: 'GET', url: '/backoffice/login' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<div id="root"></div>');
    } finally {
      await t.close();
    }
  }, 60_000);

  it('recognises the login path as the route table does', () => {
    expect(isLoginPath('/login')).toBe(true);
    expect(isLoginPath('/login/')).toBe(true);
    expect(isLoginPath('/')).toBe(false);
    expect(isLoginPath('/login/x')).toBe(false);
    expect(isLoginPath('/pages/login')).toBe(false);
  });
});

function decode(encoding: string | undefined, body: Buffer): Buffer {
  if (encoding === 'br') return brotliDecompressSync(body);
  if (encoding === 'gzip') return gunzipSync(body);
  if (encoding === undefined) return body;
  throw new Error(`unexpected content-encoding ${encoding}`);
}

describe('compressed SPA files', () => {
  let t: TestApp;
  let webRoot: string;
  // A module of a few KB that compresses like the build's do.
  const script = Array.from(
    { length: 200 },
    (_, i) =>
      `export function screen${i}(props){return props.items.filter((item)=>item.id!==${i}).map((item)=>item.name);}`,
  ).join('\n');
  const styles = Array.from({ length: 100 }, (_, i) => `.c${i}{display:flex;align-items:center;padding:${i}px}`).join(
    '',
  );
  const loginHtml = `<!doctype html><html><head><title>Painel</title><script defer src="/static/js/app.js"></script><link href="/static/css/app.css" rel="stylesheet"></head><body><div id="root" data-prerendered="login pt-BR light"><form><label>E-mail<input name="email"></label><label>Senha<input name="password" type="password"></label></form></div></body></html>`;

  beforeAll(async () => {
    webRoot = mkdtempSync(join(tmpdir(), 'spa-'));
    mkdirSync(join(webRoot, 'static', 'js'), { recursive: true });
    mkdirSync(join(webRoot, 'static', 'css'), { recursive: true });
    writeFileSync(join(webRoot, 'static', 'js', 'app.js'), script);
    writeFileSync(join(webRoot, 'static', 'css', 'app.css'), styles);
    writeFileSync(
      join(webRoot, 'index.html'),
      '<!doctype html><html><head><title>Painel</title><script defer src="/static/js/app.js"></script></head><body><div id="root"></div></body></html>',
    );
    writeFileSync(join(webRoot, 'login.pt-BR.light.mail.html'), loginHtml);
    const done = await precompressDir(join(webRoot, 'static'));
    expect(done.map((d) => d.file.slice(webRoot.length))).toEqual(['/static/css/app.css', '/static/js/app.js']);
    // Written after the build's step: no compressed files beside it.
    writeFileSync(join(webRoot, 'static', 'js', 'late.js'), script);
    t = await startTestApp({ seed: { days: 1 } });
    await serveSpa(t.app.fastify, {
      webRoot,
      backofficeTenant: 'backoffice',
      settings: { socketUrl: '/ws', ipLookupUrl: '', passwordResetMail: true },
    });
  }, 180_000);
  afterAll(async () => t.close());

  const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
    t.app.fastify.inject({ method, url, headers });

  it('writes brotli and gzip files that decompress to the built file', () => {
    const js = readFileSync(join(webRoot, 'static', 'js', 'app.js'));
    const br = readFileSync(join(webRoot, 'static', 'js', 'app.js.br'));
    const gz = readFileSync(join(webRoot, 'static', 'js', 'app.js.gz'));
    expect(brotliDecompressSync(br).equals(js)).toBe(true);
    expect(gunzipSync(gz).equals(js)).toBe(true);
    expect(br.length).toBeLessThan(gz.length);
    expect(gz.length).toBeLessThan(js.length / 3);
  });

  it('sends an asset as brotli when accepted, gzip otherwise, as it is when neither', async () => {
    const js = readFileSync(join(webRoot, 'static', 'js', 'app.js'));
    for (const [accept, expected] of [
      ['br, gzip', 'br'],
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['br;q=0.5, gzip;q=1', 'gzip'],
      ['identity', undefined],
      ['deflate', undefined],
      [undefined, undefined],
    ] as const) {
      const response = await get('/static/js/app.js', accept === undefined ? {} : { 'accept-encoding': accept });
      expect([accept, response.statusCode, response.headers['content-encoding']]).toEqual([accept, 200, expected]);
      expect(response.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers['content-security-policy']).toMatch(/script-src 'self'/);
      expect(decode(expected, response.rawPayload).equals(js)).toBe(true);
      expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    }
    const css = await get('/static/css/app.css', { 'accept-encoding': 'br' });
    expect([css.headers['content-encoding'], css.headers['content-type']]).toEqual(['br', 'text/css; charset=utf-8']);
    expect(decode('br', css.rawPayload).toString('utf8')).toBe(styles);
  });

  it('never compresses an asset itself: one without compressed files goes out as it is', async () => {
    const response = await get('/static/js/late.js', { 'accept-encoding': 'br, gzip' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(response.headers['content-length'])).toBe(statSync(join(webRoot, 'static', 'js', 'late.js')).size);
    expect(response.body).toBe(script);
  });

  it('answers HEAD, ETag revalidation and ranges per representation', async () => {
    const br = await get('/static/js/app.js', { 'accept-encoding': 'br' });
    const plain = await get('/static/js/app.js');
    expect(br.headers.etag).toBeTruthy();
    expect(br.headers.etag).not.toBe(plain.headers.etag);

    const head = await get('/static/js/app.js', { 'accept-encoding': 'br' }, 'HEAD');
    expect([head.statusCode, head.headers['content-encoding'], head.headers.etag, head.rawPayload.length]).toEqual([
      200,
      'br',
      br.headers.etag,
      0,
    ]);
    expect(head.headers['content-length']).toBe(br.headers['content-length']);

    const same = await get('/static/js/app.js', { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect(same.statusCode).toBe(304);
    expect(same.rawPayload.length).toBe(0);
    // The brotli file's ETag does not match the plain file's: a client that stopped accepting brotli gets the file.
    const other = await get('/static/js/app.js', { 'if-none-match': String(br.headers.etag) });
    expect(other.statusCode).toBe(200);
    expect(other.body).toBe(script);

    const range = await get('/static/js/app.js', { range: 'bytes=0-9' });
    expect([range.statusCode, range.body]).toEqual([206, script.slice(0, 10)]);
  });

  it('negotiates the login page and the SPA shell the same way, settings included, with their own ETags', async () => {
    for (const [url, marker] of [
      ['/backoffice/login', 'data-prerendered="login pt-BR light"'],
      ['/backoffice/users', '<div id="root"></div>'],
    ] as const) {
      const plain = await get(url);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
      expect(plain.body).toContain(marker);
      expect(plain.body).toContain('name="panel-settings"');
      for (const [accept, expected] of [
        ['br, gzip', 'br'],
        ['gzip', 'gzip'],
        ['br;q=0, gzip;q=0.5', 'gzip'],
        ['identity', undefined],
      ] as const) {
        const page = await get(url, { 'accept-encoding': accept });
        expect([url, accept, page.statusCode, page.headers['content-encoding']]).toEqual([url, accept, 200, expected]);
        expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(page.headers['cache-control']).toBe('no-cache');
        expect(page.headers.vary).toMatch(/accept-encoding/i);
        expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
        expect(Number(page.headers['content-length'])).toBe(page.rawPayload.length);
        expect(decode(expected, page.rawPayload).toString('utf8')).toBe(plain.body);
        if (expected) expect(page.headers.etag).not.toBe(plain.headers.etag);
        else expect(page.headers.etag).toBe(plain.headers.etag);
      }
      const br = await get(url, { 'accept-encoding': 'br' });
      const head = await get(url, { 'accept-encoding': 'br' }, 'HEAD');
      expect([head.statusCode, head.headers['content-encoding'], head.headers.etag, head.rawPayload.length]).toEqual([
        200,
        'br',
        br.headers.etag,
        0,
      ]);
      const revalidated = await get(url, { 'accept-encoding': 'br', 'if-none-match': `W/${String(br.headers.etag)}` });
      expect([revalidated.statusCode, revalidated.rawPayload.length, revalidated.headers.etag]).toEqual([
        304,
        0,
        br.headers.etag,
      ]);
      expect(revalidated.headers.vary).toMatch(/accept-encoding/i);
      expect((await get(url, { 'accept-encoding': 'gzip', 'if-none-match': String(br.headers.etag) })).statusCode).toBe(
        200,
      );
    }
  });

  it('keeps a compressed page only when it is smaller', () => {
    expect(compressPage('x').encodings).toEqual([]);
    expect(compressPage(loginHtml).encodings).toEqual(['br', 'gzip']);
    expect(matchesEtag('"a", W/"b"', '"b"')).toBe(true);
    expect(matchesEtag('*', '"b"')).toBe(true);
    expect(matchesEtag('"a"', '"b"')).toBe(false);
    expect(matchesEtag(undefined, '"b"')).toBe(false);
  });
});
