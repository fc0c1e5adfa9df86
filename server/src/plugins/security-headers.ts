import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers on every response (docs/security.md, section 4): a CSP without inline scripts, nosniff, no framing,
 * a strict referrer policy. vanilla-extract emits real CSS files, so styles need no 'unsafe-inline'
 * either. The API docs follow the same CSP; the local GraphiQL page (outside production) answers with its
 * own (server/src/graphql/graphiql.ts), which replaces this one for that page only.
 *
 * @fastify/helmet sets what it can express, as the request arrives (so a 401, a 404 or a refused body
 * carries them too); the rest is set by hand as the answer leaves: Permissions-Policy (not helmet's),
 * HSTS (only over HTTPS as the client saw it, which helmet cannot tell) and the request id.
 */
export async function securityHeaders(app: FastifyInstance, options: { connectSrc: string[] }): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      // Exactly these directives: helmet's defaults would add others (upgrade-insecure-requests would
      // send a plain-HTTP deployment's requests to HTTPS).
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'", 'ws:', 'wss:', ...options.connectSrc],
        'frame-ancestors': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'object-src': ["'none'"],
      },
    },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    // Kept at helmet's values (docs/security.md §4 says why each is harmless here): nothing of this
    // server is meant to be loaded by another site's page, and the SPA embeds nothing cross-origin.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    originAgentCluster: true,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Set below, only over HTTPS.
    strictTransportSecurity: false,
    xContentTypeOptions: true,
    xDnsPrefetchControl: { allow: false },
    xDownloadOptions: true,
    xFrameOptions: { action: 'deny' },
    xPermittedCrossDomainPolicies: { permittedPolicies: 'none' },
    xPoweredBy: true,
    xXssProtection: true,
  });
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=()');
    reply.header('x-request-id', request.id);
    // Only over HTTPS as the client saw it (X-Forwarded-Proto counts when TRUST_PROXY names the proxy):
    // over plain HTTP the header is meaningless, and on a development host it would pin HTTPS for a year.
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    return payload;
  });
}
