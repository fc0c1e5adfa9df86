import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { NOT_REPORTED_REASONS, SIGN_IN_FAILURE_REASONS, THROTTLE_COUNTED_REASONS } from './sign-in-reasons';

const contract = parse(readFileSync(new URL('../../../contracts/openapi.yaml', import.meta.url), 'utf8')) as {
  components: { schemas: Record<string, { enum?: string[] }> };
};
const migration = readFileSync(new URL('../db/migrations/0019-support-desk.ts', import.meta.url), 'utf8');

describe('sign-in failure reasons', () => {
  it('are the contract’s SignInFailureReason, in its order', () => {
    expect([...SIGN_IN_FAILURE_REASONS]).toEqual(contract.components.schemas['SignInFailureReason']?.enum);
  });

  it('counted by the throttle are the ones migration 0019 writes into throttle_counted, and none is left out of the report', () => {
    const generated = /throttle_counted boolean generated always as \(([\s\S]*?)\) stored/.exec(migration)?.[1] ?? '';
    const listed = [...generated.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]);
    expect(listed).toEqual([...THROTTLE_COUNTED_REASONS]);
    for (const reason of THROTTLE_COUNTED_REASONS)
      expect(NOT_REPORTED_REASONS as readonly string[]).not.toContain(reason);
  });
});
