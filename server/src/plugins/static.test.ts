import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp } from '../test-support/app';
import { serveSpa, withSettings } from './static';

describe('SPA index with runtime settings', () => {
  it('injects the settings as an escaped meta, never as script', () => {
    const html = withSettings('<html><head><title>x</title></head><body></body></html>', { socketUrl: '/ws', ipLookupUrl: 'https://ip.example/?a=1&b="2"' });
    expect(html).toContain('<meta name="panel-settings" content="{&quot;socketUrl&quot;:&quot;/ws&quot;,&quot;ipLookupUrl&quot;:&quot;https://ip.example/?a=1&amp;b=\\&quot;2\\&quot;&quot;}" /></head>');
    expect(html).not.toContain('<script');
  });

  it('serves index.html under every tenant path with the settings, and allows the IP service in connect-src', async () => {
    const webRoot = mkdtempSync(join(tmpdir(), 'spa-'));
    mkdirSync(join(webRoot, 'static'));
    writeFileSync(join(webRoot, 'index.html'), '<html><head></head><body><div id="root"></div></body></html>');
    const t = await startTestApp({ config: { ipLookupUrl: 'https://api.ipify.org?format=json' } });
    try {
      await serveSpa(t.app.fastify, { webRoot, backofficeTenant: 'backoffice', settings: { socketUrl: '/ws', ipLookupUrl: 'https://api.ipify.org?format=json' } });
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
});
