import { useTranslation } from 'react-i18next';
import { getHref } from '../../../../domain/paths';
import { EmptyState } from '../../../components/empty-state';
import { AlertIcon } from '../../../components/icons';
import { LinkButton } from '../../../components/link';

/** `/roles/edit/:id` for an id that names no role: says so and links back to the list. */
export function RoleNotFound({ id }: { id: string }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="role-not-found">
      <EmptyState
        icon={<AlertIcon size={32} />}
        title={<span id="role-not-found">{t('roles.edit.notFoundTitle')}</span>}
        description={t('roles.edit.notFoundBody', { id })}
        action={<LinkButton href={getHref('roles-list')}>{t('roles.edit.backToList')}</LinkButton>}
      />
    </section>
  );
}
