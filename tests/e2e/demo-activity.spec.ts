import { credentialsFrom, signIn } from './support/app';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { startServer } from './support/server';

/** The thirteen events of the table in contracts/socket.md §3, `ping` aside, as the app bus names them. */
const EVENTS = [
  'campaignUpdated',
  'chatNotification',
  'chatTicketClosed',
  'chatTicketTransferred',
  'chatTicketTransferring',
  'customerBlacklisted',
  'customerChatCreated',
  'customerChatAckChanged',
  'chatTicketTransfer',
  'customerCreatedToChat',
  'groupOfCustomersUpdated',
  'instanceUpdated',
  'deleteChatTicketTransfer',
] as const;

test.describe('demo activity (server/src/demo-activity/)', () => {
  test('with the demo database, the activity feed shows every event kind within a minute of signing in', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    // The default rate (one event every 3 s): what `npm start` on the embedded database does.
    const server = await startServer({ DEMO_ACTIVITY: '1' });
    try {
      await signIn(page, server.origin, credentialsFrom(server.logins, server.password).admin);
      const signedIn = Date.now();
      await page.getByRole('button', { name: new RegExp(`^${t('activity.title')}`) }).click();
      const feed = page.getByRole('dialog', { name: t('activity.title') });
      await expect(feed).toBeVisible();
      for (const name of EVENTS) {
        const left = Math.max(1, 60_000 - (Date.now() - signedIn));
        await expect(feed.getByText(t(`activity.events.${name}`), { exact: true }).first()).toBeVisible({
          timeout: left,
        });
      }
      // Bounded: never more than one event per 3 s tick for the one watched tenant.
      const elapsed = Date.now() - signedIn;
      const lines = await feed.getByRole('listitem').count();
      expect(lines).toBeLessThanOrEqual(Math.floor(elapsed / 3000) + 2);
      // Each line names the tenant it happened in: the one signed in.
      await expect(feed.getByRole('listitem').first()).toContainText('backoffice');
    } finally {
      await server.stop();
    }
  });
});
