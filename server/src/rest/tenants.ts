import { exportLanguage } from '../base/csv-stream';
import { sendCsv } from './csv-http';
import { caller, recordRowDenials, type Handler, type HandlerDeps } from './types';
import { isBroken } from '../base/broken-promises';

/** REST `/api/tenant…`: parse, call the tenants service (server/src/tenants/service.ts), answer. */
export function tenantHandlers({ services, faults }: HandlerDeps) {
  const { tenants } = services;

  const tenantList: Handler<'tenantList'> = async (request) =>
    tenants.names(caller(request), request.params.filterUsers === 'true');
  const tenantPaginated: Handler<'tenantPaginated'> = async (request) => tenants.page(caller(request), request.body);
  const tenantIds: Handler<'tenantIds'> = async (request) => tenants.ids(caller(request), request.body);
  const tenantExport: Handler<'tenantExport'> = async (request, reply) => {
    const lines = await tenants.exportCsv(
      caller(request),
      request.query,
      exportLanguage(request.headers['accept-language']),
    );
    await sendCsv(reply, 'empresas.csv', lines);
  };
  const tenantCreate: Handler<'tenantCreate'> = async (request, reply) => {
    const created = await tenants.create(caller(request), request.body);
    reply.code(isBroken('tenant-create-200') ? 200 : 201);
    return created;
  };
  const tenantDelete: Handler<'tenantDelete'> = async (request) => tenants.remove(caller(request), request.body.id);
  const tenantRestore: Handler<'tenantRestore'> = async (request) => tenants.restore(caller(request), request.body.id);
  const tenantPurge: Handler<'tenantPurge'> = async (request) => tenants.purge(caller(request), request.body.id);
  const tenantSetPlan: Handler<'tenantSetPlan'> = async (request) => tenants.setPlan(caller(request), request.body);
  const tenantUpdate: Handler<'tenantUpdate'> = async (request) => tenants.update(caller(request), request.body);
  const featureList: Handler<'featureList'> = async (request) => {
    const actor = caller(request);
    return tenants.features(actor, await tenants.resolve(actor, request.query.tenantName));
  };
  const featureUpdate: Handler<'featureUpdate'> = async (request) => {
    const { tenantName, option, enabled, version } = request.body;
    const actor = caller(request);
    return tenants.setFeature(actor, await tenants.resolve(actor, tenantName), option, enabled, version);
  };

  const tenantFeatureBulk: Handler<'tenantFeatureBulk'> = async (request) => {
    const actor = caller(request);
    const { option, enabled, ids, dry_run, batch_id, total } = request.body;
    const answer = await tenants.featureBulk(
      actor,
      { option, enabled, ids, dryRun: dry_run, batchId: batch_id, total },
      { fault: faults && ((id) => faults.row('tenantFeatureBulk', request.body, id)), log: request.log },
    );
    if (!dry_run)
      await recordRowDenials(
        services,
        actor,
        'POST /api/tenant/features/bulk',
        ['tenants'],
        answer.results,
        request.log,
      );
    return answer;
  };

  return {
    tenantFeatureBulk,
    tenantPaginated,
    tenantIds,
    tenantExport,
    tenantList,
    tenantCreate,
    tenantDelete,
    tenantRestore,
    tenantPurge,
    tenantSetPlan,
    tenantUpdate,
    featureList,
    featureUpdate,
  };
}
