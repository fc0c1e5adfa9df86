import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { createHash } from 'node:crypto';

/**
 * GraphiQL for `/{tenant}/graphql` outside production: graphql-yoga's own renderer
 * (@graphql-yoga/render-graphiql), which carries GraphiQL and its editor in the page instead of
 * loading them from a CDN. It queries the page's own path (one page for every tenant) with POST.
 *
 * The page holds its code inline and starts the editor's workers from blob: URLs, so it gets a CSP of
 * its own: the inline script allowed by its SHA-256 hash (nothing else inline), workers from blob:,
 * inline styles (the editor writes its own), and still no other origin (docs/security.md, section 4).
 */
export interface GraphiqlPage {
  html: string;
  csp: string;
}

const DEFAULT_QUERY = `# Sign in with logIn, then put its token in the Headers tab:
#   { "Authorization": "Bearer <token>" }
mutation SignIn {
  logIn(email: "admin@demo.local", password: "Back#Office!Demo") {
    token
    user {
      id
      name
    }
  }
}
`;

let page: GraphiqlPage | undefined;

export function graphiqlPage(): GraphiqlPage {
  if (page) return page;
  const html = renderGraphiQL({
    title: 'GraphQL explorer',
    defaultQuery: DEFAULT_QUERY,
    headers: JSON.stringify({ Authorization: 'Bearer ' }, null, 2),
    method: 'POST',
    credentials: 'same-origin',
  });
  const hashes = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (match) =>
      `'sha256-${createHash('sha256')
        .update(match[1] ?? '')
        .digest('base64')}'`,
  );
  const csp = [
    "default-src 'self'",
    `script-src 'self' ${hashes.join(' ')}`,
    "worker-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
  page = { html, csp };
  return page;
}
