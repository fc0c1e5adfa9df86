import { useParams } from 'wouter';
import { RoleEditor } from './role-editor';
import { RoleNotFound } from './role-not-found';

/**
 * `/roles/edit/:id`: a role's permissions grouped by category, with select-all per category,
 * counts, save (pending state, toast) and a warning before leaving with unsaved changes; rename in
 * a dialog; the administrador read-only; an unknown id says so and links back to the list.
 */
export default function RolesEditScreen() {
  // The shell renders every screen inside a <Route> of its table path (src/app/router.tsx).
  const id = useParams<{ id?: string }>().id ?? '';
  const roleId = /^[1-9][0-9]{0,9}$/.test(id) ? Number(id) : NaN;
  if (!Number.isSafeInteger(roleId) || roleId > 2_147_483_647) return <RoleNotFound id={id} />;
  // Keyed by id: another role starts a fresh editor, never one holding the previous role's draft.
  return <RoleEditor key={roleId} roleId={roleId} />;
}
