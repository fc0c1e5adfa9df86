import { prefersCsv, sendCsv } from './csv-http';
import { productivityCsv } from '../reports/analytics';
import { caller, type Handler, type HandlerDeps } from './types';

/** REST dashboards, reports and analytics: parse, call the reports service (server/src/reports/), answer. */
export function analyticsHandlers({ services }: HandlerDeps) {
  const { reports } = services;

  const tenantSyncAnalytics: Handler<'tenantSyncAnalytics'> = async (request) =>
    reports.syncAnalytics(caller(request), request.query);
  const tenantGenerateCampaignStatusWebhook: Handler<'tenantGenerateCampaignStatusWebhook'> = async (request) =>
    reports.campaignStatusWebhook(caller(request), request.query);
  const dashboardReport: Handler<'dashboardReport'> = async (request) =>
    reports.loginFailures(caller(request), request.body);
  const dashboardSummary: Handler<'dashboardSummary'> = async (request) =>
    reports.summary(caller(request), request.query);
  const dashboardTimeseries: Handler<'dashboardTimeseries'> = async (request) =>
    reports.timeseries(caller(request), request.query);

  const dashboardProductivity: Handler<'dashboardProductivity'> = async (request, reply) => {
    const { range, rows } = await reports.productivity(caller(request), request.query);
    if (!prefersCsv(request)) return rows;
    // One row per attendant: small enough to format at once; still sent as a stream like the sheets.
    await sendCsv(reply, `productivity-${range.start}-${range.finish}.csv`, productivityCsv(rows));
  };

  const dashboardReportUsers: Handler<'dashboardReportUsers'> = async (request) => {
    const actor = caller(request);
    return services.users.summaries(actor, await services.tenants.resolve(actor, request.query.tenantName));
  };

  return {
    tenantSyncAnalytics,
    tenantGenerateCampaignStatusWebhook,
    dashboardReport,
    dashboardSummary,
    dashboardTimeseries,
    dashboardProductivity,
    dashboardReportUsers,
  };
}
