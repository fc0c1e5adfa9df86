import { cnpjCheckDigits } from '../../../src/domain/cnpj';
import type { Api } from './api';

/** A valid CNPJ (check digits from the app's own rule), different on every call. */
export function freshCnpj(): string {
  const base = `${Date.now() % 1e8}`.padStart(8, '0') + `${Math.floor(Math.random() * 1e4)}`.padStart(4, '0');
  return `${base}${cnpjCheckDigits(base)}`;
}

/** Creates a tenant through the REST API (POST /api/tenant) and returns its name. */
export async function createTenant(
  api: Api,
  name: string,
  features: string[] = ['chat'],
  cnpj: string = freshCnpj(),
): Promise<string> {
  await api.rest('POST', '/api/tenant', {
    name,
    cnpj,
    features,
    template: 'farmacia',
    pool: 'pool-a',
    userLimit: 5,
    plan: 'starter',
    ticketLimit: 1000,
  });
  return name;
}

/** What every tenant the suite creates is named with (no digit, see below). */
export const TEST_TENANT_PREFIX = 'pw-';

/**
 * A tenant-name prefix unique to this run and test, without digits: the tenant search also matches
 * the digits of a search against CNPJs (any digit, even inside a name like "e2e-…"), so a digit in
 * the name would find unrelated tenants.
 */
export function uniquePrefix(tag: string): string {
  const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  return `${TEST_TENANT_PREFIX}${tag}-${unique.replace(/\d/g, (d) => String.fromCharCode(103 + Number(d)))}`;
}
