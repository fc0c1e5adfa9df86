import { useLayoutEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useRouter, useSearch } from 'wouter';
import { withTenant } from '../../domain/paths';
import { selectOwnTenant } from '../../machines/session/session-selectors';
import { appToasts, showToast } from '../components/toast-queue';
import { useSession } from './services-context';

/**
 * A signed-in user who is not back-office staff acts only in its own tenant (docs/product.md, Tenants in
 * the address): on another tenant's address it goes to the same page of its own, told why. Its calls and
 * socket already go to its own tenant (src/app/app-services.ts); this fixes the address. True while it
 * is being moved, so the layout renders nothing of the other tenant meanwhile.
 */
export function useOwnTenant(): boolean {
  const { t } = useTranslation();
  const own = useSession(selectOwnTenant);
  const { base } = useRouter();
  const [path, navigate] = useLocation();
  const search = useSearch();
  const from = base.slice(1);
  const elsewhere = own !== null && own !== from;
  useLayoutEffect(() => {
    if (!elsewhere || own === null) return;
    showToast(appToasts, {
      variant: 'info',
      title: t('shell.tenantRedirect.title', { tenant: own }),
      description: t('shell.tenantRedirect.body', { from }),
    });
    navigate(`~${withTenant(own, path)}${search ? `?${search}` : ''}`, { replace: true });
  }, [elsewhere, from, navigate, own, path, search, t]);
  return elsewhere;
}
