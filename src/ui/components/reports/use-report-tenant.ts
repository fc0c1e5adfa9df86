import { selectUser } from '../../../machines/session/session-selectors';
import { useServices, useSession } from '../../hooks/services-context';

/**
 * The tenant reports and sheets are scoped to: for back-office staff, the tenant in the address when
 * it is not their own (absent on their own address, where the server covers every tenant); for
 * everyone else nothing, as the server always scopes them to their own tenant.
 */
export function useReportTenant(): string | undefined {
  const { tenant } = useServices();
  const user = useSession(selectUser);
  const address = tenant();
  return user?.origin_backoffice && address !== user.tenantName ? address : undefined;
}
