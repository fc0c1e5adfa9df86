import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import {
  isOwnRecord,
  sameRoleField,
  selectRoleField,
  type UserFormField,
  type userFormMachine,
} from '../../../machines/users/user-form.machine';
import { Link } from '../../components/link';
import { PasswordStrengthMeter } from '../../components/password-strength-meter';
import { Select } from '../../components/select';
import { PasswordField, TextField } from '../../components/text-field';
import * as styles from './users.css';

/** The running form child of the users machine (`snapshot.children.userForm`). */
export type UserFormRef = ActorRefFrom<typeof userFormMachine>;

/** The "no department" choice of the department select (a Select option needs a key). */
const NO_DEPARTMENT = 'none';

/** Each field reads only its own value and error, so a keystroke re-renders one field, not the form. */
function useField(form: UserFormRef, field: string) {
  const { t } = useTranslation();
  const key = useSelector(form, (s) => s.context.invalid[field]);
  const busy = useSelector(form, (s) => s.hasTag('busy'));
  return { isInvalid: key !== undefined, errorMessage: key ? t(key) : undefined, busy };
}

function TextInput({
  form,
  field,
  type,
  autoComplete,
}: {
  form: UserFormRef;
  field: Exclude<UserFormField, 'password'>;
  type: 'text' | 'email';
  autoComplete: string;
}) {
  const { t } = useTranslation();
  const value = useSelector(form, (s) => s.context.values[field]);
  const { busy, ...validity } = useField(form, field);
  return (
    <TextField
      name={field}
      type={type}
      autoComplete={autoComplete}
      label={t(`users.form.${field}`)}
      value={value}
      onChange={(next) => form.send({ type: 'users.form.field', field, value: next })}
      isRequired
      isReadOnly={busy}
      {...validity}
    />
  );
}

function PasswordInput({ form }: { form: UserFormRef }) {
  const { t } = useTranslation();
  const meterId = useId();
  const value = useSelector(form, (s) => s.context.values.password);
  const { busy, ...validity } = useField(form, 'password');
  return (
    <div className={`${styles.wide} ${styles.section}`}>
      <PasswordField
        name="password"
        autoComplete="new-password"
        label={t('users.form.password')}
        description={t('users.form.passwordHelp')}
        value={value}
        onChange={(next) => form.send({ type: 'users.form.field', field: 'password', value: next })}
        isRequired
        isReadOnly={busy}
        aria-describedby={value ? meterId : undefined}
        {...validity}
      />
      <PasswordStrengthMeter id={meterId} password={value} />
    </div>
  );
}

/**
 * One's own e-mail, shown disabled: it changes (as one's password) on the account screen, with the
 * current password (server/src/users/service.ts). The note says so and links there, by the name the menu
 * gives that screen; the link is in the field's description, so it is read with the field and reached
 * by Tab right after it.
 */
function OwnEmailInput({ form }: { form: UserFormRef }) {
  const { t } = useTranslation();
  const value = useSelector(form, (s) => s.context.values.email);
  return (
    <TextField
      name="email"
      type="email"
      label={t('users.form.email')}
      value={value}
      isDisabled
      description={
        <>
          {t('users.form.ownCredentials')} <Link href="/user-settings">{t('routes.user-settings')}</Link>.
        </>
      }
    />
  );
}

/**
 * Only the roles the signed-in user may give (src/domain/escalation.ts), the edited user's own kept;
 * on one's own record the role is shown, disabled, with why: another administrator must change it.
 */
function RoleSelect({ form }: { form: UserFormRef }) {
  const { t } = useTranslation();
  const value = useSelector(form, (s) => s.context.values.role_id);
  const field = useSelector(form, selectRoleField, sameRoleField);
  const { busy, ...validity } = useField(form, 'role_id');
  const description = field.locked ? t(field.locked) : field.narrowed ? t('users.form.roleNarrowed') : undefined;
  return (
    <Select
      label={t('users.form.role')}
      name="role_id"
      items={field.roles.map((role) => ({ id: role.id, label: role.display_name }))}
      value={value}
      onChange={(key) => form.send({ type: 'users.form.role', roleId: typeof key === 'number' ? key : null })}
      isRequired
      isDisabled={busy || field.locked !== null}
      description={description}
      {...validity}
    />
  );
}

function DepartmentSelect({ form }: { form: UserFormRef }) {
  const { t } = useTranslation();
  const value = useSelector(form, (s) => s.context.values.user_department_id);
  const departments = useSelector(form, (s) => s.context.departments);
  const { busy, ...validity } = useField(form, 'user_department_id');
  return (
    <Select
      label={t('users.form.department')}
      name="user_department_id"
      items={[
        { id: NO_DEPARTMENT, label: t('users.noDepartment') },
        ...departments.map((d) => ({ id: d.id, label: d.name })),
      ]}
      value={value ?? NO_DEPARTMENT}
      onChange={(key) =>
        form.send({ type: 'users.form.department', departmentId: typeof key === 'number' ? key : null })
      }
      isDisabled={busy}
      {...validity}
    />
  );
}

/**
 * Name, username, email, the password with its strength meter (create only: an edit never sends a
 * password, GraphQL `updateUser`), role and department; on one's own record the e-mail and role are
 * shown disabled, with why. Values and errors are the machine's:
 * local checks and the server's refusals arrive by field the same way.
 */
export function UserIdentityFields({ form }: { form: UserFormRef }) {
  const mode = useSelector(form, (s) => s.context.mode);
  const own = useSelector(form, (s) => isOwnRecord(s.context));
  return (
    <div className={styles.fields}>
      <TextInput form={form} field="name" type="text" autoComplete="name" />
      <TextInput form={form} field="username" type="text" autoComplete="username" />
      <div className={styles.wide}>
        {own ? (
          <OwnEmailInput form={form} />
        ) : (
          <TextInput form={form} field="email" type="email" autoComplete="email" />
        )}
      </div>
      {mode === 'create' ? <PasswordInput form={form} /> : null}
      <RoleSelect form={form} />
      <DepartmentSelect form={form} />
    </div>
  );
}
