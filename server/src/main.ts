import { buildApp } from './app';
import { startAuditPurge } from './audit/retention';
import { loadConfig, publicUrl } from './base/config';
import { openDatabase } from './db/connect';
import { migrate } from './db/migrate';
import { startDemoActivity } from './demo-activity/simulator';
import { DEMO_LOGINS, DEMO_PASSWORD, seedDemo } from './tooling/seed';
import { processLog } from './base/log';
import { serveSpa } from './plugins/static';
import { startWebhookWorker } from './webhooks/worker';

/** The start banner for the person who ran `npm start` (server/src/base/log.ts): text on stdout, not a log line. */
function banner(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** `npm start`: migrate, seed on first run, serve SPA + API on one port, drain on shutdown. */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(config.databaseUrl);
  await migrate(database.db);
  if (config.seedDemo) {
    const started = Date.now();
    const seeded = await seedDemo(database.db);
    if (seeded) banner(`Seeded demo data in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  }
  const { fastify, events, sockets, webhookProgress, mailer } = await buildApp({
    db: database.db,
    config,
    pg: database.pg,
  });
  if (config.demoActivity) {
    const activity = await startDemoActivity({
      db: database.db,
      events,
      log: fastify.log,
      pg: database.kind === 'postgres' ? (config.databaseListenUrl ?? database.pg) : undefined,
      localTenants: () => sockets.tenants(),
      intervalMs: config.demoActivityIntervalMs,
      accessTokenTtl: config.accessTokenTtl,
    });
    fastify.addHook('onClose', () => activity.stop());
  }
  // The daily retention purge (docs/operations.md, AUDIT_RETENTION_DAYS, LOGIN_ATTEMPTS_RETENTION_DAYS): the
  // audit log, sign-in attempts and spent token families; stopped before the database closes.
  const auditPurge = startAuditPurge({
    db: database.db,
    retentionDays: config.auditRetentionDays,
    sessions: {
      loginAttemptsDays: config.loginAttemptsRetentionDays,
      loginWindowSeconds: config.loginWindowSeconds,
      refreshWindowSeconds: config.refreshWindow,
      accessTokenTtlSeconds: config.accessTokenTtl,
    },
    log: fastify.log,
  });
  fastify.addHook('onClose', () => auditPurge.stop());
  // The webhook worker (docs/webhooks.md, docs/operations.md, Webhooks): every process may run one; closing
  // waits for the attempts under way to be recorded, before the database closes.
  if (config.webhooks.worker) {
    const webhooks = startWebhookWorker({
      db: database.db,
      settings: config.webhooks,
      progress: webhookProgress,
      events,
      log: fastify.log,
    });
    fastify.addHook('onClose', () => webhooks.stop());
  }
  await serveSpa(fastify, {
    webRoot: config.webRoot,
    backofficeTenant: config.backofficeTenant,
    settings: { socketUrl: config.socketUrl, ipLookupUrl: config.ipLookupUrl, passwordResetMail: mailer.enabled },
  });
  await fastify.listen({ host: config.host, port: config.port });

  // The bound port, not the configured one: PORT=0 lets the OS pick.
  const address = fastify.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const base = `http://${config.host}:${port}`;
  // Links in e-mails name the bound port too when PUBLIC_URL is unset (its default is the server's address).
  if (!process.env.PUBLIC_URL?.trim()) config.publicUrl = publicUrl(undefined, config.host, port);
  banner(`\nBack-office panel: ${base}/${config.backofficeTenant}/`);
  const where = database.kind === 'pglite' ? ` (${config.databaseUrl ?? './.data/pglite'})` : '';
  banner(`Database: ${database.kind}${where}`);
  // Where reset links go (docs/operations.md, Mail): never silently nowhere.
  if (config.smtpUrl) banner('Mail: SMTP_URL');
  else if (!config.production) banner(`Mail: a local mailbox, ${base}/dev/mailbox (no SMTP_URL)`);
  else banner('Mail: none (no SMTP_URL): reset links are disabled');
  // Only logins that really exist: a database created with admin:create has none of the demo ones.
  const demo = await database.db
    .selectFrom('users')
    .select('email')
    .where(
      'email',
      'in',
      DEMO_LOGINS.map((l) => l.email),
    )
    .where('deleted_at', 'is', null)
    .where('blocked', '=', false)
    .execute();
  const present = DEMO_LOGINS.filter((l) => demo.some((row) => row.email === l.email));
  if (present.length > 0) {
    banner(`Demo logins (password ${DEMO_PASSWORD}):`);
    for (const login of present) {
      const note = login.role === 'operador' ? ' (dashboards and reports only)' : '';
      banner(`  ${login.email.padEnd(20)} ${login.role}${note}`);
    }
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    fastify.log.info({ signal }, 'shutting down: draining in-flight requests');
    await fastify.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  processLog.fatal({ err: error }, 'the server could not start');
  process.exit(1);
});
