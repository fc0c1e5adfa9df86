/**
 * The name rule of departments and connections (contracts/openapi.yaml `DepartmentCreate`,
 * `ConnectionCreate`): trimmed, not blank, at most 80 characters, and not a name another record of the
 * same scope has, ignoring case. The server decides in the end (server/src/departments/service.ts,
 * server/src/instances/service.ts); the screens apply it first so a bad name never leaves the form.
 */

export const RECORD_NAME_MAX_LENGTH = 80;

export type RecordNameProblem = 'blank' | 'tooLong' | 'taken';

/** Lower case as the comparison for "the same name" (the database compares `lower(name)`). */
export const sameName = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * What is wrong with `value` as a name, or null.
 *
 * @param others - the names of the other records of the scope (the record being renamed left out)
 */
export function recordNameProblem(value: string, others: readonly string[]): RecordNameProblem | null {
  if (!value.trim()) return 'blank';
  if ([...value].length > RECORD_NAME_MAX_LENGTH) return 'tooLong';
  if (others.some((name) => sameName(name, value))) return 'taken';
  return null;
}
