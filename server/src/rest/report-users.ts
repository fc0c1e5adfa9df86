import { resolveTenant } from '../tenants/scope';
import { caller, type Handler, type HandlerDeps } from './types';

/**
 * The login-failure report's user picker (`GET /api/dashboard-report/users`): who a report-only role
 * may narrow the report to, without the `users` permission GraphQL `users` needs. Only id, name and
 * email leave the server, and only of one tenant (the caller's own unless staff name another).
 */
export function reportUserHandlers({ db }: HandlerDeps) {
  const dashboardReportUsers: Handler<'dashboardReportUsers'> = async (request) => {
    const tenant = await resolveTenant(db, caller(request), request.query.tenantName);
    return db
      .selectFrom('users')
      .select(['id', 'name', 'email'])
      .where('tenant_id', '=', tenant.id)
      .where('deleted_at', 'is', null)
      .orderBy('name')
      .orderBy('id')
      .execute();
  };
  return { dashboardReportUsers };
}
