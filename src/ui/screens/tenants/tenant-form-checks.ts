import { cnpjProblem, type CnpjProblem } from '../../../domain/cnpj';
import type { Plan, TenantCreate, TenantEdit } from '../../../machines/tenants/tenants-actors';

/**
 * The tenant forms' own checks, mirroring the contract (TenantCreate, TenantUpdate, TenantSetPlan), so a bad
 * value is refused on its field before any call; the server still has the last word.
 */

/** The contract's bounds for the limits. */
export const LIMITS = { userLimit: { min: 1, max: 100_000 }, ticketLimit: { min: 1, max: 100_000_000 } } as const;

/** The reference database's plan defaults (plans table), suggested when a plan is picked. */
export const PLAN_DEFAULTS: Readonly<Record<Plan, { userLimit: number; ticketLimit: number }>> = {
  starter: { userLimit: 5, ticketLimit: 1000 },
  professional: { userLimit: 25, ticketLimit: 10_000 },
  enterprise: { userLimit: 200, ticketLimit: 100_000 },
};

export const PLANS: readonly Plan[] = ['starter', 'professional', 'enterprise'];

const TENANT_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const SLUG = /^[a-z0-9_-]{1,40}$/;

/** A problem with one field, as the form shows it (`limit` carries its bounds, `cnpj` what is wrong). */
export type FieldProblem =
  | { kind: 'required' | 'name' | 'slug' }
  | { kind: 'cnpj'; problem: CnpjProblem }
  | { kind: 'limit'; min: number; max: number };

export function limitProblem(value: number, bounds: { min: number; max: number }): FieldProblem | null {
  if (Number.isNaN(value)) return { kind: 'required' };
  return Number.isInteger(value) && value >= bounds.min && value <= bounds.max ? null : { kind: 'limit', ...bounds };
}

/** Every field of an edit (name, CNPJ, template, pool) that would be refused: creation's rules. */
export function editProblems(tenant: TenantEdit): Record<string, FieldProblem> {
  const out: Record<string, FieldProblem> = {};
  if (tenant.name === '') out['name'] = { kind: 'required' };
  else if (!TENANT_NAME.test(tenant.name)) out['name'] = { kind: 'name' };
  const problem = tenant.cnpj === '' ? null : cnpjProblem(tenant.cnpj);
  if (tenant.cnpj === '') out['cnpj'] = { kind: 'required' };
  else if (problem !== null) out['cnpj'] = { kind: 'cnpj', problem };
  for (const field of ['template', 'pool'] as const) {
    if (tenant[field] === '') out[field] = { kind: 'required' };
    else if (!SLUG.test(tenant[field])) out[field] = { kind: 'slug' };
  }
  return out;
}

/** Every field of a new tenant that would be refused, by the contract's field name. */
export function createProblems(tenant: TenantCreate): Record<string, FieldProblem> {
  const out = editProblems(tenant);
  for (const field of ['userLimit', 'ticketLimit'] as const) {
    const problem = limitProblem(tenant[field], LIMITS[field]);
    if (problem) out[field] = problem;
  }
  return out;
}
