import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { apiLogin } from './support/api';
import { signIn } from './support/app';
import { seriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';

/**
 * The acceptance of campaign-status webhooks in Chromium (docs/webhooks.md): register an endpoint
 * pointing at a receiver this spec starts on 127.0.0.1 (the shared server runs with
 * WEBHOOK_ALLOW_LOOPBACK=1 and a short WEBHOOK_RETRY_BASE_MS, tests/e2e/global-setup.ts), generate for a
 * range, watch the run's progress, see one failed delivery with its status code, redeliver it and see it
 * succeed; the receiver checked every signature and got each success exactly once. The tenant's
 * deliveries are all this spec's: no other spec registers an endpoint in farmacia-central
 * (tests/e2e/tenant-features.spec.ts generates in another tenant).
 */

const TENANT = 'farmacia-central';
/** The status code the receiver answers the first delivery it sees: a 4xx other than 429 is not retried. */
const REFUSED = 422;

interface Received {
  id: string;
  status: number;
  signed: boolean;
}

/**
 * `Webhook-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]`, each v1 the HMAC-SHA256 of `<t>.<body>` with a
 * signing secret (docs/webhooks.md, Signatures): valid when one of them matches the secret.
 */
function verify(secret: string, header: string | undefined, body: string): boolean {
  if (!header) return false;
  const parts = header.split(',').map((part) => part.trim().split('='));
  const timestamp = parts.find(([key]) => key === 't')?.[1];
  if (!timestamp || !/^\d+$/.test(timestamp)) return false;
  // A replayed old delivery is refused, as a receiver should (five minutes, docs/webhooks.md).
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest();
  return parts
    .filter(([key]) => key === 'v1')
    .some(([, hex]) => {
      const given = Buffer.from(hex ?? '', 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A receiver on 127.0.0.1: checks each signature, refuses the first delivery once, takes the rest. */
async function startReceiver() {
  let secret = '';
  let refusedId: string | null = null;
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const id = String(request.headers['webhook-id'] ?? '');
      const signed = secret !== '' && verify(secret, request.headers['webhook-signature'] as string | undefined, body);
      let status = signed ? 200 : 401;
      if (signed && (refusedId === null || refusedId === id) && !received.some((r) => r.id === id)) {
        refusedId ??= id;
        status = REFUSED;
      }
      received.push({ id, status, signed });
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(status === 200 ? { ok: true } : { error: 'refused by the test receiver' }));
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/${Date.now().toString(36)}`,
    received,
    refusedId: () => refusedId,
    setSecret: (value: string) => {
      secret = value;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const panel = (page: Page) => page.getByRole('dialog', { name: t('tenants.panel.title', { name: TENANT }) });

test.use({ bypassCSP: true });

test.describe('campaign-status webhooks', () => {
  test('register an endpoint, generate, watch the run, redeliver the failed delivery; every signature verified', async ({
    page,
    app,
  }) => {
    test.setTimeout(180_000);
    const receiver = await startReceiver();
    try {
      await signIn(page, app.origin, app.admin, `/tenants?panel=webhooks&tenant=${TENANT}`);
      const dialog = panel(page);

      // Register the endpoint: the secret is shown once.
      await dialog.getByRole('button', { name: t('webhooks.endpoints.add'), exact: true }).click();
      const form = page.getByRole('dialog', { name: t('webhooks.endpoints.form.createTitle') });
      await form.getByRole('textbox', { name: t('webhooks.endpoints.form.url') }).fill(receiver.url);
      await form.getByRole('checkbox', { name: t('webhooks.types.delivered'), exact: true }).check();
      await form.getByRole('button', { name: t('webhooks.endpoints.form.create'), exact: true }).click();
      const shown = page.getByRole('alertdialog', { name: t('webhooks.endpoints.secret.title') });
      await expect(shown.getByText(t('webhooks.endpoints.secret.once'))).toBeVisible();
      const secret = (await shown.getByTestId('webhook-secret').textContent())?.trim() ?? '';
      expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      receiver.setSecret(secret);
      await shown.getByRole('button', { name: t('webhooks.endpoints.secret.done') }).click();
      await expect(dialog.getByRole('listitem', { name: receiver.url })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      // Generate the type for the last week (the panel's default range).
      await dialog.getByRole('button', { name: new RegExp(t('webhooks.generator.types')) }).click();
      await page.getByRole('option', { name: t('webhooks.types.delivered'), exact: true }).click();
      await page.keyboard.press('Escape');
      await dialog.getByRole('button', { name: t('webhooks.generate'), exact: true }).click();
      const results = dialog.getByRole('list', { name: t('webhooks.generator.resultsLabel') });
      // The demo data's campaign messages (docs/webhooks.md) must hold some of this type in the last week.
      await expect(
        results.getByText(new RegExp(t('webhooks.generator.deliveries', { count: 2 }).replace('2', '[1-9]\\d*'))),
        'the demo tenant has delivered campaign messages in the last 7 days',
      ).toBeVisible();
      const history = results.getByRole('link', { name: t('webhooks.run.history') });
      await expect(history).toBeVisible();
      const runId = Number(new URL(String(await history.getAttribute('href')), app.origin).searchParams.get('run'));
      expect(runId).toBeGreaterThan(0);
      // The run's progress as the socket tells it, until every delivery settled.
      await expect(results.getByText(t('webhooks.run.finished'), { exact: false })).toBeVisible({ timeout: 90_000 });
      expect(receiver.refusedId()).not.toBeNull();

      // Its history: the failed delivery with its status code.
      await history.click();
      await expect(page).toHaveURL(new RegExp(`/webhooks\\?tenant=${TENANT}&run=${runId}$`));
      await page.getByRole('combobox', { name: t('webhooks.history.filters.state') }).selectOption('failed');
      const grid = page.getByRole('grid', { name: t('webhooks.history.deliveriesTitle') });
      const failed = grid.getByRole('row').filter({ hasText: t('webhooks.history.statusCode', { code: REFUSED }) });
      await expect(failed).toHaveCount(1);
      await expect(failed.getByText(t('webhooks.states.failed'), { exact: true })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      // Its detail: the attempt with the receiver's answer.
      await failed.getByRole('button', { name: t('webhooks.history.showDetail') }).click();
      await expect(page.getByText('refused by the test receiver')).toBeVisible();

      // Redeliver it, and see it succeed.
      await failed.getByRole('button', { name: new RegExp(t('webhooks.history.redeliver')) }).click();
      await expect(page.getByRole('status').filter({ hasText: /#\d+/ })).toBeVisible();
      await page.getByRole('combobox', { name: t('webhooks.history.filters.state') }).selectOption('succeeded');
      const refusedId = receiver.refusedId()!;
      await expect
        .poll(() => receiver.received.filter((r) => r.id === refusedId && r.status === 200).length, { timeout: 60_000 })
        .toBe(1);
      // The run's counters follow (the socket's WebhookRunProgress): nothing failed any more.
      const runItem = page
        .getByRole('list', { name: t('webhooks.history.runsTitle') })
        .getByRole('listitem')
        .filter({
          hasText: `#${runId} ·`,
        });
      await expect(runItem.getByText(t('webhooks.run.failed', { n: 0 }), { exact: true })).toBeVisible({
        timeout: 30_000,
      });

      // The receiver: every request signed, each delivery taken exactly once (idempotency keys counted).
      expect(receiver.received.length).toBeGreaterThan(1);
      expect(receiver.received.filter((r) => !r.signed)).toEqual([]);
      const taken = new Map<string, number>();
      for (const r of receiver.received.filter((x) => x.status === 200)) taken.set(r.id, (taken.get(r.id) ?? 0) + 1);
      expect([...taken.values()].filter((n) => n !== 1)).toEqual([]);
      expect(receiver.received.filter((r) => r.status === REFUSED).map((r) => r.id)).toEqual([refusedId]);
    } finally {
      // Its endpoint goes (what still waits for it is cancelled): a later run of this spec on the same
      // server would otherwise queue deliveries to a receiver that is gone, and its run never finish.
      const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
      const { data } = await api.rest<{ data: { id: number; url: string }[] }>(
        'GET',
        `/api/webhooks/endpoints?tenantName=${TENANT}`,
      );
      for (const endpoint of data.filter((e) => e.url === receiver.url))
        await api.rest('DELETE', `/api/webhooks/endpoints/${String(endpoint.id)}`);
      await receiver.stop();
    }
  });
});
