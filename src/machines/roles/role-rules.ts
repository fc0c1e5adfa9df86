import type { I18nKey } from '../../domain/i18n-key';

/** The contract's pattern for a role's machine name (contracts/openapi.yaml `RoleCreate`). */
export const ROLE_NAME = /^[a-z0-9_-]{2,40}$/;

/** Why a new role is refused locally, per field. */
export function roleCreateProblems(name: string, displayName: string): Record<string, I18nKey> {
  const problems: Record<string, I18nKey> = {};
  if (!ROLE_NAME.test(name)) problems['name'] = 'roles.errors.name';
  const label = displayName.trim();
  if (!label || label.length > 80) problems['display_name'] = 'roles.errors.displayName';
  return problems;
}

/** Why a rename is refused locally: an empty or too long display name. */
export function roleRenameProblems(displayName: string): Record<string, I18nKey> {
  const label = displayName.trim();
  return !label || label.length > 80 ? { display_name: 'roles.errors.displayName' } : {};
}
