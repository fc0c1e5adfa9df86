import { parseArgs } from 'node:util';
import { AdminCreateError, createAdmin } from './tooling/admin';
import { openDatabase } from './db/connect';
import { migrate } from './db/migrate';

/** `npm run admin:create -- --email E --password P [--name N]`: a real administrator on any database. */
async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
    strict: true,
  });
  if (!values.email || !values.password) {
    console.error('Usage: npm run admin:create -- --email admin@example.com --password "…" [--name "Full Name"]');
    return 2;
  }
  const database = await openDatabase();
  try {
    await migrate(database.db);
    const admin = await createAdmin(database.db, {
      email: values.email,
      password: values.password,
      name: values.name ?? values.email.split('@')[0] ?? 'Admin',
    });
    console.log(`Administrator ${admin.email} created in tenant ${admin.tenantName} (id ${admin.id}).`);
    return 0;
  } catch (error) {
    if (error instanceof AdminCreateError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
