import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/**
 * Validates answers against the response schemas of `contracts/openapi.yaml` (OpenAPI 3.1 is
 * JSON Schema 2020-12). The whole document is registered once, so `#/components/schemas/…` refs
 * resolve inside it exactly as the contract writes them.
 */
interface ResponseObject {
  $ref?: string;
  content?: Record<string, { schema?: unknown }>;
}
interface OperationObject {
  operationId?: string;
  responses?: Record<string, ResponseObject>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components: { responses?: Record<string, ResponseObject> };
}

const OPENAPI_PATH = fileURLToPath(new URL('../../../contracts/openapi.yaml', import.meta.url));
const DOC_ID = 'https://contract.local/openapi.json';
const document = parse(readFileSync(OPENAPI_PATH, 'utf8')) as OpenApiDocument;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats.default(ajv);
ajv.addSchema({ ...document, $id: DOC_ID });

const pointer = (...parts: string[]): string =>
  parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
const compiled = new Map<string, ValidateFunction>();

/** JSON pointer (inside the document) of the JSON schema of an operation's answer. */
function schemaPointer(operationId: string, status: number, mediaType: string): string {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation.operationId !== operationId) continue;
      const response = operation.responses?.[String(status)];
      if (!response) throw new Error(`${operationId}: the contract lists no ${status} answer`);
      const ref = response.$ref?.replace(/^#\//, '');
      const base = ref ? ref.split('/') : ['paths', path, method, 'responses', String(status)];
      const target = ref ? document.components.responses?.[base[2] ?? ''] : response;
      if (!target?.content?.[mediaType]?.schema) throw new Error(`${operationId} ${status}: no ${mediaType} schema`);
      return `#/${pointer(...base, 'content', mediaType, 'schema')}`;
    }
  }
  throw new Error(`unknown operationId ${operationId}`);
}

export interface ContractCheck {
  valid: boolean;
  errors: ErrorObject[];
}

/**
 * Checks `body` against the contract's schema for `operationId` answering `status` (JSON by default).
 *
 * @example expect(validateResponse('instanceList', 200, response.json())).toEqual({ valid: true, errors: [] })
 */
export function validateResponse(
  operationId: string,
  status: number,
  body: unknown,
  mediaType = 'application/json',
): ContractCheck {
  const key = `${operationId} ${status} ${mediaType}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOC_ID}${schemaPointer(operationId, status, mediaType)}` });
    compiled.set(key, validate);
  }
  const valid = validate(body);
  return { valid, errors: valid ? [] : [...(validate.errors ?? [])] };
}
