import type { FastifyInstance } from 'fastify';

/**
 * Security headers on every response (docs/security.md, section 4): a CSP without inline scripts, nosniff, no framing,
 * a strict referrer policy. vanilla-extract emits real CSS files, so styles need no 'unsafe-inline'
 * either. The API docs and the local GraphiQL page (outside production) follow the same CSP.
 */
export function securityHeaders(app: FastifyInstance, options: { connectSrc: string[] }): void {
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ws: wss: ${options.connectSrc.join(' ')}`.trim(),
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
  app.addHook('onSend', async (request, reply, payload) => {
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', csp);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=()');
    reply.header('x-request-id', request.id);
    // Only over HTTPS as the client saw it (X-Forwarded-Proto counts when TRUST_PROXY names the proxy):
    // over plain HTTP the header is meaningless, and on a development host it would pin HTTPS for a year.
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    return payload;
  });
}
