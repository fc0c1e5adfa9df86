import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { policyOf, type Policy } from '../access/policies';
import { OPENAPI_PATH } from '../app';
import { REST_OPERATIONS } from './operation-policies';

/**
 * The REST door's early filter reads contracts/openapi.yaml (`x-permission`, `x-staff-only`,
 * `x-permission-for-others`: server/src/plugins/auth.ts); the services decide with
 * server/src/access/policies.ts. The two must say the same, operation by operation, or the door
 * would let through what the service refuses (a 403 after validation) or refuse what the service allows.
 */

interface Declared {
  operationId: string;
  'x-permission'?: string | string[];
  'x-staff-only'?: boolean;
  'x-permission-for-others'?: string[];
}

const contract = parse(readFileSync(OPENAPI_PATH, 'utf8')) as { paths: Record<string, Record<string, Declared>> };
const declared = Object.values(contract.paths).flatMap((methods) =>
  Object.values(methods).filter((op): op is Declared => typeof op === 'object' && op !== null && 'operationId' in op),
);

/** What the contract declares, in the policy's terms. */
function asPolicy(op: Declared): Record<string, unknown> {
  const permission = op['x-permission'];
  if (permission === 'public') return { caller: 'anyone' };
  const forOthers = op['x-permission-for-others'];
  return {
    caller: 'user',
    anyOf: [...(forOthers ?? (typeof permission === 'string' ? [] : (permission ?? [])))].sort(),
    staffOnly: op['x-staff-only'] === true,
    selfService: forOthers !== undefined,
  };
}

function comparable(policy: Policy): Record<string, unknown> {
  if (policy.caller !== 'user') return { caller: policy.caller };
  return {
    caller: 'user',
    anyOf: [...policy.anyOf].sort(),
    staffOnly: policy.staffOnly === true,
    selfService: policy.selfService !== undefined,
  };
}

describe('REST operations and their service policies agree', () => {
  it('maps every operation of the contract, and nothing else', () => {
    expect(Object.keys(REST_OPERATIONS).sort()).toEqual(declared.map((op) => op.operationId).sort());
  });

  it.each(declared.map((op) => [op.operationId, op] as const))('%s', (operationId, op) => {
    const operation = REST_OPERATIONS[operationId as keyof typeof REST_OPERATIONS];
    if (operation === null) {
      expect(op['x-permission']).toBe('public');
      return;
    }
    expect(asPolicy(op), `${operationId} runs ${operation}`).toEqual(comparable(policyOf(operation)));
  });
});
