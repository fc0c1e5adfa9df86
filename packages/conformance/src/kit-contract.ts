import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Kind, buildSchema, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { CONTRACTS_DIR } from './contracts-dir.js';
import { fragmentsOf, isFragmentFile, operationDocument, readOperationFiles } from './graphql-documents.js';

/** The contracts as the conformance kit (./kit.ts) reads them, and REST answers checked against contracts/openapi.yaml. */

// ---------------------------------------------------------------------------------------------------------
// Contract files
// ---------------------------------------------------------------------------------------------------------

const CONTRACTS = CONTRACTS_DIR;

interface ResponseObject {
  $ref?: string;
  content?: Record<string, { schema?: unknown }>;
}
interface OperationObject {
  operationId?: string;
  'x-extension'?: boolean;
  responses?: Record<string, ResponseObject>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components: { responses?: Record<string, ResponseObject> };
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);
const openapi = parseYaml(readFileSync(join(CONTRACTS, 'openapi.yaml'), 'utf8')) as OpenApiDocument;

/** Every REST operationId of the contract. */
export const REST_OPERATION_IDS: string[] = Object.values(openapi.paths).flatMap((item) =>
  Object.entries(item)
    .filter(([method, op]) => HTTP_METHODS.has(method) && typeof op.operationId === 'string')
    .map(([, op]) => op.operationId as string),
);

const restExtensions = new Set(
  Object.values(openapi.paths).flatMap((item) =>
    Object.entries(item)
      .filter(([method, op]) => HTTP_METHODS.has(method) && op['x-extension'] === true)
      .map(([, op]) => op.operationId as string),
  ),
);

export const graphqlSchema: GraphQLSchema = buildSchema(readFileSync(join(CONTRACTS, 'schema.graphql'), 'utf8'));

export interface GraphqlOperationFile {
  name: string;
  file: string;
  source: string;
  document: DocumentNode;
  operation: OperationDefinitionNode;
}

const operationFiles = readOperationFiles();
const operationFragments = fragmentsOf(operationFiles);

/**
 * Every operation file of `contracts/operations/` (one named operation each), its `source` and `document`
 * completed with the fragment files it spreads, as the SPA sends it (src/generated/graphql.ts).
 */
export const GRAPHQL_OPERATIONS: GraphqlOperationFile[] = operationFiles
  .filter((file) => !isFragmentFile(file.file))
  .map((file) => {
    const operation = operationDocument(file, operationFragments);
    if (!operation) throw new Error(`${file.file}: no named operation`);
    return operation;
  });

// ---------------------------------------------------------------------------------------------------------
// OpenAPI response validation (a copy of server/src/test-support/contract.ts, kept server-free)
// ---------------------------------------------------------------------------------------------------------

const DOC_ID = 'https://contract.local/openapi.json';
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats.default(ajv);
ajv.addSchema({ ...openapi, $id: DOC_ID });
const compiled = new Map<string, ValidateFunction>();
const pointer = (...parts: string[]): string =>
  parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** The statuses the contract lists for an operation. */
export function listedStatuses(operationId: string): string[] {
  for (const item of Object.values(openapi.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (HTTP_METHODS.has(method) && op.operationId === operationId) return Object.keys(op.responses ?? {});
    }
  }
  return [];
}

function schemaPointer(operationId: string, status: number, mediaType: string): string {
  for (const [path, item] of Object.entries(openapi.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method) || operation.operationId !== operationId) continue;
      const response = operation.responses?.[String(status)];
      if (!response) throw new Error(`the contract lists no ${status} answer`);
      const ref = response.$ref?.replace(/^#\//, '');
      const base = ref ? ref.split('/') : ['paths', path, method, 'responses', String(status)];
      const target = ref ? openapi.components.responses?.[base[2] ?? ''] : response;
      if (!target?.content?.[mediaType]?.schema)
        throw new Error(`the contract has no ${mediaType} schema for ${status}`);
      return `#/${pointer(...base, 'content', mediaType, 'schema')}`;
    }
  }
  throw new Error(`unknown operationId ${operationId}`);
}

/** Problems of `body` against the contract's schema for `operationId` answering `status`; [] when valid. */
export function validateRestResponse(
  operationId: string,
  status: number,
  body: unknown,
  mediaType = 'application/json',
): string[] {
  const key = `${operationId} ${status} ${mediaType}`;
  let validate = compiled.get(key);
  if (!validate) {
    try {
      validate = ajv.compile({ $ref: `${DOC_ID}${schemaPointer(operationId, status, mediaType)}` });
    } catch (error) {
      return [(error as Error).message];
    }
    compiled.set(key, validate);
  }
  if (validate(body)) return [];
  return (validate.errors ?? []).map(
    (e) =>
      `schema: ${e.instancePath || '/'} ${e.message ?? 'invalid'}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
  );
}

/**
 * Whether an operation goes beyond the base API: a REST operation marked `x-extension: true`, or a
 * GraphQL operations file whose root fields' descriptions have the line `Extension: not in the base API`
 * (contracts/schema.graphql, its header).
 */
export function isExtension(operation: string): boolean {
  if (restExtensions.has(operation)) return true;
  const file = GRAPHQL_OPERATIONS.find((op) => op.name === operation);
  if (!file) return false;
  const root = file.operation.operation === 'mutation' ? graphqlSchema.getMutationType() : graphqlSchema.getQueryType();
  const fields = root?.getFields() ?? {};
  return file.operation.selectionSet.selections.some(
    (selection) =>
      selection.kind === Kind.FIELD &&
      /^\s*Extension: not in the base API\b/m.test(fields[selection.name.value]?.description ?? ''),
  );
}
