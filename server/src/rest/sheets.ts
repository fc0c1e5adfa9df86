import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SheetAnswer } from '../reports/service';
import { prefersCsv, sendCsv } from './csv-http';
import { caller, type Handler, type HandlerDeps } from './types';

/**
 * Answers a sheet request: the JSON preview, or — when the client prefers `text/csv` — every row
 * streamed in keyset pages (server/src/reports/sheet.ts).
 */
async function answer<Json>(request: FastifyRequest, reply: FastifyReply, sheet: SheetAnswer<Json>) {
  if (!prefersCsv(request)) return sheet.preview();
  await sendCsv(reply, sheet.fileName, sheet.csv());
  return undefined;
}

/** REST sheets: parse, call the reports service (server/src/reports/service.ts), answer. */
export function sheetHandlers({ services }: HandlerDeps) {
  const { reports } = services;
  const sheetOrders: Handler<'sheetOrders'> = async (request, reply) =>
    answer(request, reply, await reports.orders(caller(request), request.query));
  const sheetAttendances: Handler<'sheetAttendances'> = async (request, reply) =>
    answer(request, reply, await reports.attendances(caller(request), request.query));
  const sheetInstanceLogs: Handler<'sheetInstanceLogs'> = async (request, reply) =>
    answer(request, reply, await reports.instanceLogs(caller(request), request.query));
  const sheetReasons: Handler<'sheetReasons'> = async (request, reply) =>
    answer(request, reply, await reports.reasons(caller(request), request.query));
  const sheetLoginFailures: Handler<'sheetLoginFailures'> = async (request, reply) =>
    answer(request, reply, await reports.loginFailureSheet(caller(request), request.query));
  return { sheetOrders, sheetAttendances, sheetInstanceLogs, sheetReasons, sheetLoginFailures };
}
