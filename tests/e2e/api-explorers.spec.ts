import type { Page } from '@playwright/test';
import { TENANT } from './support/app';
import { expect, test } from './support/fixtures';

/**
 * The API explorers a backend team uses (docs/operations.md): Swagger UI at /api/docs and GraphiQL at
 * /{tenant}/graphql, both served by the server itself. Each is used for real ("try it", a query) and
 * neither may reach another origin or break the CSP.
 */
function watch(page: Page): { origins: Set<string>; problems: string[] } {
  const origins = new Set<string>();
  const problems: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    origins.add(url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol);
  });
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return { origins, problems };
}

test.describe('API explorers', () => {
  test('Swagger UI at /api/docs tries the sign-in against this server', async ({ page, app }) => {
    const seen = watch(page);
    await page.goto(`${app.origin}/api/docs`);
    await page.locator('#operations-tag-auth').click();
    const operation = page.locator('#operations-auth-authLogin');
    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation
      .locator('textarea.body-param__text')
      .fill(JSON.stringify({ email: app.admin.email, password: app.admin.password, ip: null }));
    await operation.getByRole('button', { name: 'Execute' }).click();
    await expect(operation.locator('.live-responses-table tbody .response-col_status').first()).toHaveText('200');
    await expect(operation.locator('.request-url pre')).toHaveText(`${app.origin}/api/auth/login`);
    await expect(operation.locator('.live-responses-table .microlight').first()).toContainText('access_token');
    expect([...seen.origins].filter((origin) => origin !== app.origin)).toEqual([]);
    expect(seen.problems).toEqual([]);
  });

  test('GraphiQL at /{tenant}/graphql runs a query, with its schema docs, from this server only', async ({
    page,
    app,
  }) => {
    const seen = watch(page);
    await page.goto(`${app.origin}/${TENANT}/graphql`);
    await page.locator('.graphiql-execute-button').click();
    await expect(page.locator('.graphiql-response')).toContainText('"token"');
    await expect(page.locator('.graphiql-response')).toContainText('"name"');
    // The schema (introspection) reached the documentation explorer.
    await page.getByRole('button', { name: /Show Documentation Explorer/i }).click();
    await expect(page.locator('.graphiql-doc-explorer')).toContainText('Query');
    // The editor's workers start from blob: URLs; nothing else but this server.
    expect([...seen.origins].filter((origin) => origin !== app.origin && origin !== 'blob:')).toEqual([]);
    expect(seen.problems).toEqual([]);
  });
});
