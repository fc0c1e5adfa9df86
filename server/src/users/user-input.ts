/** What the users service (./service.ts) takes in: a new user, and a change to one. */
import { invalid } from '../base/domain-error';

export interface NewUser {
  username: string;
  name: string;
  email: string;
  password: string;
  role_id: number;
  user_department_id?: number | null;
  chosen_instances?: readonly number[] | null;
}

/** A change to a user: omitted (undefined) fields stay as they are; null where a value is required is refused. */
export interface UserPatch {
  username?: string | null;
  name?: string | null;
  email?: string | null;
  /** null clears the avatar. */
  image?: string | null;
  password?: string;
  role_id?: number | null;
  /** null removes the department. */
  user_department_id?: number | null;
  /** The complete new set of linked instances. */
  chosen_instances?: readonly number[];
  /** One's own new e-mail is proven with the current password (server/src/auth/current-password.ts). */
  current_password?: string | null;
  /** The version the caller read: the change is refused (409 `stale`) unless it is current (docs/lists.md, Versions). */
  version?: number | null;
}

/** A value the field cannot do without. */
export function required<T>(value: T | null, field: string): T {
  if (value === null) throw invalid(field, `${field} cannot be null`);
  return value;
}
