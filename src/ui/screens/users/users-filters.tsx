import { useTranslation } from 'react-i18next';
import type { UsersQuery } from '../../../machines/users/users-query';
import type { Department, Role } from '../../../machines/users/users-actors';
import { FilterSelect } from '../../components/filter-select';
import * as styles from './users.css';

export interface UsersFiltersProps {
  query: UsersQuery;
  onChange: (change: Partial<UsersQuery>) => void;
  roles: readonly Role[];
  /** The tenant's departments (GraphQL `departments`, loaded with the list). */
  departments: readonly Department[];
}

type Flag = 'blocked' | 'online' | 'twoFactor';

/**
 * The users list's filters (docs/lists.md, Filters and export): role, department (or none), blocked,
 * online and two-factor, each "Todos" by default, kept in the address with the search and sort.
 */
export function UsersFilters({ query, onChange, roles, departments }: UsersFiltersProps) {
  const { t } = useTranslation();
  const any = { value: '', label: t('lists.filters.any') };
  const offered = new Map<number, string>(departments.map((department) => [department.id, department.name]));
  // A department in the address that the tenant does not have (deleted, mistyped) still shows as chosen.
  if (typeof query.department === 'number' && !offered.has(query.department))
    offered.set(query.department, `#${query.department}`);
  const flag = (key: Flag, label: string, yes: string, no: string) => (
    <FilterSelect
      label={label}
      value={query[key] === null ? '' : String(query[key])}
      options={[any, { value: 'true', label: yes }, { value: 'false', label: no }]}
      onChange={(value) => onChange({ [key]: value === '' ? null : value === 'true' })}
    />
  );
  return (
    <div className={styles.filters} role="group" aria-label={t('lists.filters.heading')}>
      <FilterSelect
        label={t('lists.filters.role')}
        value={query.role === null ? '' : String(query.role)}
        options={[any, ...roles.map((role) => ({ value: String(role.id), label: role.display_name }))]}
        onChange={(value) => onChange({ role: value === '' ? null : Number(value) })}
      />
      <FilterSelect
        label={t('lists.filters.department')}
        value={query.department === null ? '' : String(query.department)}
        options={[
          any,
          { value: 'none', label: t('lists.filters.noDepartment') },
          ...[...offered]
            .sort((a, b) => a[1].localeCompare(b[1]))
            .map(([id, name]) => ({ value: String(id), label: name })),
        ]}
        onChange={(value) => onChange({ department: value === '' ? null : value === 'none' ? 'none' : Number(value) })}
      />
      {flag('blocked', t('lists.filters.blocked'), t('lists.filters.blockedYes'), t('lists.filters.blockedNo'))}
      {flag('online', t('lists.filters.online'), t('lists.filters.onlineYes'), t('lists.filters.onlineNo'))}
      {flag('twoFactor', t('lists.filters.twoFactor'), t('lists.filters.twoFactorYes'), t('lists.filters.twoFactorNo'))}
    </div>
  );
}
