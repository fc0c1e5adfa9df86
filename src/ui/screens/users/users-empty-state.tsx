import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { PlusIcon } from '../../components/icons';

export interface UsersEmptyStateProps {
  /** There are users, only none match the search. */
  hasUsers: boolean;
  query: string;
  onClear: () => void;
  onCreate: () => void;
}

/** No users at all (offer to create one) or none matching the search or filters (offer to clear them). */
export function UsersEmptyState({ hasUsers, query, onClear, onCreate }: UsersEmptyStateProps) {
  const { t } = useTranslation();
  if (hasUsers) {
    return (
      <EmptyState
        title={query.trim() === '' ? t('lists.filters.noMatch') : t('users.empty.noMatch', { query: query.trim() })}
        action={
          <Button variant="secondary" onPress={onClear}>
            {t('users.empty.clearSearch')}
          </Button>
        }
      />
    );
  }
  return (
    <EmptyState
      title={t('users.empty.title')}
      description={t('users.empty.description')}
      action={
        <Button variant="secondary" icon={<PlusIcon />} onPress={onCreate}>
          {t('users.actions.create')}
        </Button>
      }
    />
  );
}
