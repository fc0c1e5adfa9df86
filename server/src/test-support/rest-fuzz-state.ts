import type { TestApp } from './app';
import type { TestUser } from './users';

/** What the parts of the REST fuzz run (./rest-fuzz.ts) share: its size, its app and callers, the pools of existing values. */

export interface RestFuzzSize {
  /** Valid and invalid requests per operation. Invalid ones end at validation (no database): cheap, so more of them. */
  validRuns: number;
  invalidRuns: number;
  /** Operations whose valid calls hash passwords (argon2, ~20–60 ms each) get fewer valid runs. */
  heavy: Partial<Record<string, number>>;
  /** The run must send at least this many requests. */
  minRequests: number;
  /** Runs of the order-of-checks property (no token, a bad token, a caller without the permission). */
  orderingRuns: number;
}

/** `npm run test:reliability`: at least 10 000 requests. */
export const FULL_REST_FUZZ: RestFuzzSize = {
  validRuns: 90,
  invalidRuns: 125,
  heavy: { authLogin: 30, userCreate: 50, userUpdate: 60 },
  minRequests: 10_000,
  orderingRuns: 3_000,
};

type Answer = { status: number; body: unknown; input: Input };
export interface Input {
  path: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
}
/** Why a valid request may get this 4xx, or null when it may not. */
export type Explain = (answer: Answer) => Promise<string | null> | string | null;

/** The run's app and callers, set up by {@link describeRestFuzz}'s beforeAll. */
export const run = {} as {
  t: TestApp;
  caller: TestUser;
  token: string;
  /** A user of a customer tenant (not back-office staff) whose role holds no route permission. */
  outsider: TestUser;
  outsiderToken: string;
};
export const existing = {
  tenants: [] as string[],
  emails: [] as string[],
  ids: [] as number[],
  options: [] as string[],
  /** The webhook records' ids by table, for the operations whose path names one (./rest-fuzz-requests.ts). */
  webhookIds: { endpoints: [] as number[], runs: [] as number[], deliveries: [] as number[] },
  /** Cursors the webhook history hands out (`next`): record ids in decimal. */
  cursors: [] as string[],
};
