import type { Kysely } from 'kysely';
import type { ServerConfig } from '../base/config';
import type { Database } from '../db/schema';

/**
 * What the support desk shows of temporary passwords and reset links (docs/support-desk.md), which
 * the part of the desk that sets them owns (`users.must_change_password` of migration 0020, mail).
 * Until that part is in this tree there is no such column and no mail: these read false, and are the
 * only places that change when it arrives.
 */

/** Whether the user must choose a new password at its next sign-in (`users.must_change_password`). */
export async function mustChangePasswordOf(_db: Kysely<Database>, _userId: number): Promise<boolean> {
  return false;
}

/** Whether reset links can be sent (the server has a way to send mail). */
export function resetLinksEnabled(_config: ServerConfig): boolean {
  return false;
}
