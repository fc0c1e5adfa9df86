import type { FastifyRequest } from 'fastify';
import type { GraphQLResolveInfo } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { withRequestRecords, type RequestRecords } from '../base/request-records';
import type { GraphqlContext, ServerContext } from './types';

/**
 * The audit records a GraphQL change wrote, named in its answer as REST's `x-audit-record` names them
 * (docs/lists.md, Undo on the server; contracts/schema.graphql, AUDIT RECORDS), so the SPA's toast of a
 * change made over GraphQL offers "Desfazer" too:
 *
 * - each root mutation field runs in a scope of its own (server/src/base/request-records.ts), which the
 *   audit trail fills as the field's transactions commit (server/src/audit/trail.ts); a field that
 *   resolved names the first record it wrote, under its response key (its alias, else its name), in
 *   `extensions.auditRecords`. Mutations run one after the other, so the scopes never mix. A field that
 *   failed names nothing (its transaction rolled back), and the records of the fields that ran before it
 *   are still named: their changes stand, even when `data` is null.
 * - the answer carries the header `x-audit-record` only when it is one change's whole answer: no errors,
 *   and exactly one root field wrote records — the SPA sends one change per document, and a toast must not
 *   offer to undo half of a document.
 */
export const AUDIT_RECORDS_EXTENSION = 'auditRecords';

interface Named {
  byField: Map<string, number>;
  /** The record for the header, once the result is known (see above). */
  header?: number;
}

const named = new WeakMap<FastifyRequest, Named>();

type RootResolver = (parent: unknown, args: never, ctx: GraphqlContext, info: GraphQLResolveInfo) => Promise<unknown>;

/** Every root mutation resolver, run in its own records scope; the first record it wrote is noted for the answer. */
export function namingRecords<R extends Record<string, RootResolver>>(resolvers: R): R {
  const wrapped: Record<string, RootResolver> = {};
  for (const [name, resolve] of Object.entries(resolvers)) {
    wrapped[name] = async (parent, args, ctx, info) => {
      const request = (ctx as Partial<ServerContext>).req;
      const records: RequestRecords = { ids: [] };
      const result = await withRequestRecords(records, () => resolve(parent, args, ctx, info));
      const first = records.ids[0];
      if (request && first !== undefined) {
        const entry = named.get(request) ?? { byField: new Map<string, number>() };
        entry.byField.set(String(info.path.key), first);
        named.set(request, entry);
      }
      return result;
    };
  }
  return wrapped as R;
}

/** Puts the named records in the result's `extensions` and decides the header. */
export const auditRecordsExtension: Plugin<ServerContext> = {
  onExecute() {
    return {
      onExecuteDone({ args, result, setResult }) {
        if (Symbol.asyncIterator in result) return;
        const request = (args.contextValue as Partial<ServerContext>).req;
        const entry = request ? named.get(request) : undefined;
        if (!entry || entry.byField.size === 0) return;
        if (entry.byField.size === 1 && !result.errors?.length) entry.header = [...entry.byField.values()][0];
        setResult({
          ...result,
          extensions: { ...result.extensions, [AUDIT_RECORDS_EXTENSION]: Object.fromEntries(entry.byField) },
        });
      },
    };
  },
};

/** The record the answer's `x-audit-record` names; undefined when it names none. */
export function auditRecordHeaderOf(request: FastifyRequest): number | undefined {
  return named.get(request)?.header;
}
