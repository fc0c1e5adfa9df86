/** Types of bench/peers/tenants-data.mjs for the TypeScript bench. */
export type Plan = 'starter' | 'professional' | 'enterprise';

export interface BenchTenant {
  id: number;
  name: string;
  cnpj: string;
  plan: Plan;
  userLimit: number;
  ticketLimit: number;
  features: string[];
  template: string;
  pool: string;
}

export const TENANT_COUNT: number;
export const PLANS: readonly Plan[];
export function makeTenants(count?: number, seed?: number): BenchTenant[];
export function tenantCreateBody(tenant: BenchTenant): Omit<BenchTenant, 'id'>;
export function queryTenants(
  rows: readonly BenchTenant[],
  query?: { q?: string; field?: keyof BenchTenant; order?: string; page?: number; perPage?: number },
): { data: BenchTenant[]; total: number };
