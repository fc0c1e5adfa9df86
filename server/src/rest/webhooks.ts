import { caller, type Handler, type HandlerDeps } from './types';

/** REST webhook history and redelivery (docs/webhooks.md): thin adapters over server/src/webhooks/service.ts. */
export function webhookHandlers({ services }: HandlerDeps) {
  const { webhooks } = services;
  const webhookRunList: Handler<'webhookRunList'> = async (request) => webhooks.runs(caller(request), request.query);
  const webhookRunGet: Handler<'webhookRunGet'> = async (request) => webhooks.run(caller(request), request.params.id);
  const webhookRunRedeliverFailed: Handler<'webhookRunRedeliverFailed'> = async (request) =>
    webhooks.redeliverFailed(caller(request), request.params.id);
  const webhookDeliveryList: Handler<'webhookDeliveryList'> = async (request) =>
    webhooks.deliveries(caller(request), request.query);
  const webhookDeliveryGet: Handler<'webhookDeliveryGet'> = async (request) =>
    webhooks.delivery(caller(request), request.params.id);
  const webhookDeliveryRedeliver: Handler<'webhookDeliveryRedeliver'> = async (request) =>
    webhooks.redeliver(caller(request), request.params.id);
  return {
    webhookRunList,
    webhookRunGet,
    webhookRunRedeliverFailed,
    webhookDeliveryList,
    webhookDeliveryGet,
    webhookDeliveryRedeliver,
  };
}
