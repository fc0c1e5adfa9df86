import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp } from '../test-support/app';
import { isLoginPath, serveSpa, withSettings } from './static';

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

  it('serves the prerendered login.html for the login page only, with the settings', async () => {
    const webRoot = mkdtempSync(join(tmpdir(), 'spa-'));
    mkdirSync(join(webRoot, 'static'));
    writeFileSync(join(webRoot, 'index.html'), '<html><head></head><body><div id="root"></div></body></html>');
    writeFileSync(join(webRoot, 'login.html'), '<html><head></head><body><div id="root" data-prerendered="login pt-BR light"><form></form></div></body></html>');
    const t = await startTestApp();
    try {
      await serveSpa(t.app.fastify, { webRoot, backofficeTenant: 'backoffice', settings: { socketUrl: '/ws', ipLookupUrl: '' } });
      for (const url of ['/backoffice/login', '/farmacia-central/login?to=%2Ftenants', '/backoffice/login/']) {
        const page = await t.app.fastify.inject({ method: 'GET', url });
        expect([url, page.statusCode]).toEqual([url, 200]);
        expect(page.body).toContain('data-prerendered="login pt-BR light"');
        expect(page.body).toContain('name="panel-settings"');
        expect(page.headers['cache-control']).toBe('no-cache');
      }
      // Every other page — a signed-in user reloading it — gets the empty shell, never a login form.
      for (const url of ['/backoffice/', '/backoffice/tenants', '/backoffice/users?login=1', '/backoffice/pages/error-404', '/backoffice/login/extra', '/backoffice/Login']) {
        const page = await t.app.fastify.inject({ method: 'GET', url });
        expect([url, page.statusCode]).toEqual([url, 200]);
        expect(page.body).not.toContain('data-prerendered');
        expect(page.body).toContain('<div id="root"></div>');
      }
    } finally {
      await t.close();
    }
  }, 60_000);

  it('serves index.html for the login page too when the build has no login.html', async () => {
    const webRoot = mkdtempSync(join(tmpdir(), 'spa-'));
    mkdirSync(join(webRoot, 'static'));
    writeFileSync(join(webRoot, 'index.html'), '<html><head></head><body><div id="root"></div></body></html>');
    const t = await startTestApp();
    try {
      await serveSpa(t.app.fastify, { webRoot, backofficeTenant: 'backoffice', settings: { socketUrl: '/ws', ipLookupUrl: '' } });
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
