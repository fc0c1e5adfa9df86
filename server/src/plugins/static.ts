import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { escapeHtmlText } from '../../../src/domain/html';
import { matchPath } from '../../../src/domain/paths';
import { everyLook, FIRST_VISIT_LOOK, loginPageFile, lookFromCookies } from '../../../src/domain/look-cookie';
import { ENCODINGS, preferredEncoding, type Encoding } from './compression';

/**
 * The built SPA: hashed assets under `/static/`, and `index.html` for every `/{tenant}/…` path
 * (history mode; wouter's base is the first segment) but the login page's, which gets
 * the login page prerendered (src/app/prerender.tsx) in the language and theme of the visitor's look
 * cookie (src/domain/look-cookie.ts; pt-BR, light without it), with the link to reset a password or,
 * for a server that cannot send mail, its notice: the form paints before any script runs. Only there: a signed-in user
 * reloading any other page must not see a login form flash by. `/` goes to the back-office tenant.
 *
 * Compression (docs/performance.md, "Compression"): the assets are sent as the brotli or gzip file the
 * build wrote beside them (scripts/precompress.mjs) when the client accepts one, chosen by
 * @fastify/static's `preCompressed`, which also sets `Vary: Accept-Encoding` and the original file's
 * content type; the ETag is the sent file's. The two pages are compressed here, once at start, after
 * the runtime settings are in them, and negotiated the same way (`preferredEncoding`).
 */
/** Where the hashed assets are served (rsbuild.config.ts: `assetPrefix: '/'`, files under `static/`). */
export const STATIC_PREFIX = '/static/';

/** What the SPA reads at start (src/app/app-services.ts `readSettings`). */
export interface SpaSettings {
  socketUrl: string;
  ipLookupUrl: string;
  /** Whether reset links can be e-mailed; the login page is prerendered for either (src/app/prerender-state.ts). */
  passwordResetMail: boolean;
}

/**
 * index.html with the runtime settings in a `<meta name="panel-settings">` (data, not script: the CSP
 * forbids inline scripts), so one build serves every deployment.
 */
export function withSettings(html: string, settings: SpaSettings): string {
  const meta = `<meta name="panel-settings" content="${escapeHtmlText(JSON.stringify(settings))}" />`;
  return html.includes('</head>') ? html.replace('</head>', `${meta}</head>`) : `${meta}${html}`;
}

/** One page in every encoding it is sent in, each with its own ETag. */
export interface CompressedPage {
  bodies: { identity: Buffer } & Partial<Record<Encoding, Buffer>>;
  etags: { identity: string } & Partial<Record<Encoding, string>>;
  /** The encodings worth sending (smaller than the page itself), in the server's order of preference. */
  encodings: Encoding[];
}

/** Brotli at its best quality and gzip -9, as the build does for the assets (scripts/precompress.mjs). */
export function compressPage(html: string): CompressedPage {
  const identity = Buffer.from(html, 'utf8');
  const tag = createHash('sha256').update(identity).digest('base64url').slice(0, 27);
  const page: CompressedPage = { bodies: { identity }, etags: { identity: `"${tag}"` }, encodings: [] };
  const compressed: Record<Encoding, Buffer> = {
    br: brotliCompressSync(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
    gzip: gzipSync(identity, { level: 9 }),
  };
  for (const encoding of ENCODINGS) {
    if (compressed[encoding].length >= identity.length) continue;
    page.bodies[encoding] = compressed[encoding];
    page.etags[encoding] = `"${tag}-${encoding}"`;
    page.encodings.push(encoding);
  }
  return page;
}

/** Whether `If-None-Match` names this ETag (weak comparison, as for a GET) or is `*`. */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

export async function serveSpa(
  app: FastifyInstance,
  options: { webRoot: string; backofficeTenant: string; settings: SpaSettings },
): Promise<void> {
  const root = resolve(options.webRoot);
  const indexPath = resolve(root, 'index.html');
  const hasBuild = existsSync(indexPath);
  const indexHtml = hasBuild ? withSettings(readFileSync(indexPath, 'utf8'), options.settings) : '';
  const index = compressPage(indexHtml);
  // The login page in each look the build prerendered it in, for this server's mail (src/domain/look-cookie.ts).
  const mail = options.settings.passwordResetMail ? 'mail' : 'no-mail';
  const logins = new Map<string, CompressedPage>();
  for (const look of everyLook()) {
    const path = resolve(root, loginPageFile(look, mail));
    if (hasBuild && existsSync(path))
      logins.set(
        `${look.locale}.${look.theme}`,
        compressPage(withSettings(readFileSync(path, 'utf8'), options.settings)),
      );
  }
  /** The visitor's look's page; a first visit's (pt-BR, light) without the cookie; the shell without a build's pages. */
  const loginPage = (cookies: string | undefined): CompressedPage => {
    const look = lookFromCookies(cookies) ?? FIRST_VISIT_LOOK;
    return (
      logins.get(`${look.locale}.${look.theme}`) ??
      logins.get(`${FIRST_VISIT_LOOK.locale}.${FIRST_VISIT_LOOK.theme}`) ??
      index
    );
  };
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: resolve(root, 'static'),
      prefix: STATIC_PREFIX,
      immutable: true,
      maxAge: '365d',
      index: false,
      wildcard: true,
      preCompressed: true,
    });
  }
  app.get('/', async (_request, reply) => reply.redirect(`/${options.backofficeTenant}/`, 302));
  app.get('/:tenant', async (request, reply) =>
    reply.redirect(`/${(request.params as { tenant: string }).tenant}/`, 301),
  );
  // Compressed here, not again by server/src/plugins/compression.ts.
  app.get('/:tenant/*', { compress: false }, async (request, reply) => {
    if (!hasBuild)
      return reply.code(503).send({ status: 'unavailable', message: 'The SPA is not built: run `npm run build`.' });
    const rest = `/${(request.params as { '*': string })['*']}`;
    const login = isLoginPath(rest);
    const page = login ? loginPage(request.headers.cookie) : index;
    const encoding = preferredEncoding(request.headers['accept-encoding'], page.encodings);
    const etag = page.etags[encoding] ?? page.etags.identity;
    reply
      .header('cache-control', 'no-cache')
      .header('vary', login ? 'accept-encoding, cookie' : 'accept-encoding')
      .header('etag', etag);
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    return reply.type('text/html; charset=utf-8').send(page.bodies[encoding] ?? page.bodies.identity);
  });
}

/** The tenant-relative path of the login route (the route table's own matching, trailing slash included). */
export function isLoginPath(rest: string): boolean {
  return matchPath(rest)?.route.name === 'login';
}
