import type { Key } from 'react-aria-components/ListBox';
import { useTranslation } from 'react-i18next';
import type { ReportUser } from '../../../machines/reports/login-failure-report.machine';
import { MultiSelect } from '../../components/multi-select';

export interface UsersPickerProps {
  users: readonly ReportUser[];
  selected: readonly number[];
  onChange: (keys: Key[]) => void;
  /** What the picker says under itself: the rule for no selection, or why it is empty. */
  description: string;
  isDisabled: boolean;
  className?: string;
}

/** The report's users, by name with the e-mail beneath; none chosen means everyone. */
export default function UsersPicker({
  users,
  selected,
  onChange,
  description,
  isDisabled,
  className,
}: UsersPickerProps) {
  const { t } = useTranslation();
  return (
    <MultiSelect
      label={t('reports.screen.loginFailures.users')}
      description={description}
      placeholder={t('reports.allUsers')}
      items={users.map((u) => ({ id: u.id, label: u.name, description: u.email }))}
      value={selected}
      onChange={onChange}
      isDisabled={isDisabled}
      className={className}
    />
  );
}
