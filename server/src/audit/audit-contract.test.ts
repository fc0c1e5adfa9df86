import { readFileSync } from 'node:fs';
import {
  buildSchema,
  getNamedType,
  isInputObjectType,
  isObjectType,
  type GraphQLNamedType,
  type GraphQLType,
} from 'graphql';
import { parse } from 'yaml';
import { AUDIT_OPERATION_NAMES, AUDIT_TARGET_TYPES } from '../../../src/domain/audit';
import { auditCsvLine, changesText } from './csv';
import type { ReadAuditRow } from './repository';

// "A record can never be edited or deleted through any operation" (docs/security.md, Audit log), read off
// the contracts themselves: any operation that could would have to be declared there. And the contracts'
// vocabulary is src/domain/audit.ts's, which the writer and the screen use.
const read = (path: string) => readFileSync(new URL(`../../../contracts/${path}`, import.meta.url), 'utf8');

interface Operation {
  operationId?: string;
  tags?: string[];
  responses?: Record<string, { content?: Record<string, { example?: unknown }> }>;
}
const openapi = parse(read('openapi.yaml')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { enum?: string[] }> };
};
const schema = buildSchema(read('schema.graphql'));
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

const operations = Object.entries(openapi.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, op]) => ({ path, method, op })),
);

/** Every named type reachable from `type` through fields and arguments (the audit types, if any). */
function reaches(type: GraphQLType, seen = new Set<string>()): Set<string> {
  const named: GraphQLNamedType = getNamedType(type);
  if (seen.has(named.name)) return seen;
  seen.add(named.name);
  if (isObjectType(named) || isInputObjectType(named))
    for (const field of Object.values(named.getFields())) {
      reaches(field.type, seen);
      for (const arg of 'args' in field ? field.args : []) reaches(arg.type, seen);
    }
  return seen;
}

describe('audit records cannot be changed through any operation', () => {
  it('REST: the audit paths and operations answer GET only', () => {
    const audit = operations.filter(
      ({ path, op }) => /audit/i.test(path) || /audit/i.test(op.operationId ?? '') || op.tags?.includes('audit'),
    );
    // The undo (server/src/undo/service.ts) writes new records beside the undone one and changes none:
    // the trigger of migration 0015 refuses any UPDATE of a record whatever the operation.
    expect(audit.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'get /api/audit',
      'get /api/audit/names',
      'post /api/audit/{id}/undo',
    ]);
  });

  it('GraphQL: no mutation names the audit log or takes or returns an audit type', () => {
    const mutation = schema.getMutationType();
    const touching = Object.values(mutation?.getFields() ?? {}).filter((field) => {
      const types = reaches(field.type);
      for (const arg of field.args) reaches(arg.type, types);
      return /audit/i.test(field.name) || [...types].some((name) => /^Audit/.test(name));
    });
    expect(touching.map((f) => f.name)).toEqual([]);
    // The check sees audit types where they are: the query that reads them.
    const query = schema.getQueryType()?.getFields()['auditRecords'];
    expect(query && [...reaches(query.type)].filter((n) => n.startsWith('Audit')).sort()).toEqual([
      'AuditChange',
      'AuditPage',
      'AuditRecord',
    ]);
  });
});

describe('the contracts name the operations and target types of src/domain/audit.ts', () => {
  it('AuditOperation is AUDIT_OPERATION_NAMES', () => {
    expect(openapi.components.schemas['AuditOperation']?.enum).toEqual(AUDIT_OPERATION_NAMES);
  });

  it('AuditTargetType is AUDIT_TARGET_TYPES', () => {
    expect(openapi.components.schemas['AuditTargetType']?.enum).toEqual([...AUDIT_TARGET_TYPES]);
  });
});

describe('the CSV of auditList', () => {
  const content = openapi.paths['/api/audit']?.['get']?.responses?.['200']?.content ?? {};
  const json = content['application/json']?.example as { data: (Omit<ReadAuditRow, 'at'> & { at: string })[] };
  const csv = content['text/csv']?.example as string;

  it("renders the contract's JSON example as its CSV example", () => {
    const lines = json.data.map((r) => auditCsvLine({ ...r, at: new Date(r.at) }));
    expect(csv.split('\r\n').slice(1).join('\r\n')).toBe(lines.join(''));
  });

  it('shows each change as field: before → after, several joined with |, a missing side as —', () => {
    expect(
      changesText([
        { field: 'plan', before: '"starter"', after: '"enterprise"' },
        { field: 'department_id', before: null, after: '3' },
        { field: 'blocked', before: 'false', after: null },
      ]),
    ).toBe('plan: "starter" → "enterprise" | department_id: — → 3 | blocked: false → —');
    expect(changesText([])).toBe('');
  });
});
