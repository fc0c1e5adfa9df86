import { invalid } from './domain-error';

/**
 * The parameters of lists paged by cursor, newest first (the audit log, the webhook history): the
 * cursor is a record id in decimal, as their `next` hands it out; ids are the contracts' `Id`.
 */
const MAX_ID = 2_147_483_647;
const CURSOR = /^[1-9][0-9]{0,9}$/;

/** `after`: null for the first page; 400 on `after` for anything the list never handed out. */
export function pageCursor(value: string | null | undefined): number | null {
  if (value === undefined || value === null) return null;
  if (!CURSOR.test(value) || Number(value) > MAX_ID) throw invalid('after', 'is not a cursor this list handed out');
  return Number(value);
}

/** `limit`: the list's default when absent, 400 on `limit` outside 1..max. */
export function pageLimit(value: number | null | undefined, limits: { default: number; max: number }): number {
  if (value === undefined || value === null) return limits.default;
  if (!Number.isInteger(value) || value < 1 || value > limits.max)
    throw invalid('limit', `must be between 1 and ${String(limits.max)}`);
  return value;
}

/** An optional record id filter: 400 on `field` unless an integer 1..2^31-1. */
export function optionalId(field: string, value: number | null | undefined): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Number.isInteger(value) || value < 1 || value > MAX_ID) throw invalid(field, 'must be a record id (1 or more)');
  return value;
}
