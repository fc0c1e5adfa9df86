import { Ajv2020 } from 'ajv/dist/2020.js';
import type { DataValidateFunction } from 'ajv/dist/types/index.js';
import addFormats from 'ajv-formats';
import type { FastifyError, FastifyReply, FastifyRequest, FastifySchemaValidationError } from 'fastify';
import { HttpError, unavailable } from './base/errors';
import { isDatabaseUnavailable } from './db/unavailable';
import { restAnswerOf } from './rest/domain-errors';
import { asDomainError } from './base/domain-error';
import { CONTRACT_RULES } from './users/rules';

/**
 * How the app validates what arrives and answers what fails (server/src/app.ts registers both): the
 * contract's JSON Schemas compiled with Ajv, and one error handler that gives validation failures,
 * domain refusals, an unreachable database and Fastify's own 4xx the contract's bodies.
 */

/**
 * JSON-Schema 2020-12 (OpenAPI 3.1) validation; unknown properties are errors, never dropped.
 * Query, path and header values arrive as text, so those parts coerce (`?page=2` is the integer 2);
 * a JSON body never does: `{"name": 12345}` or `{"name": ["x"]}` is a wrong type, not the string "12345".
 */
export function createValidator(coerce: boolean) {
  const ajv = new Ajv2020({
    removeAdditional: false,
    useDefaults: true,
    coerceTypes: coerce ? 'array' : false,
    allErrors: true,
    strict: false,
  });
  addFormats.default(ajv);
  // `x-rule: <name>` (contracts/openapi.yaml conventions): a value rule of the services, applied here
  // with the schema so one answer names every bad field. An unknown rule name fails at start.
  ajv.addKeyword({
    keyword: 'x-rule',
    type: 'string',
    schemaType: 'string',
    errors: true,
    compile(rule: string) {
      const refusal = CONTRACT_RULES[rule];
      if (!refusal) throw new Error(`contracts/openapi.yaml: unknown x-rule "${rule}"`);
      const validate: DataValidateFunction = (value: string) => {
        const why = refusal(value);
        validate.errors = why === null ? undefined : [{ keyword: 'x-rule', message: why, params: { rule } }];
        return why === null;
      };
      return validate;
    },
  });
  return ajv;
}

type TextValidator = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };
type SchemaNode = { type?: unknown; properties?: Record<string, SchemaNode>; items?: SchemaNode };

/** The numeric type of a schema, if it is one (`integer` before `number`). */
function numericType(schema: SchemaNode | undefined): 'integer' | 'number' | null {
  const types = Array.isArray(schema?.type) ? schema.type : [schema?.type];
  return types.includes('integer') ? 'integer' : types.includes('number') ? 'number' : null;
}

const DECIMAL = { integer: /^-?\d+$/, number: /^-?\d+(?:\.\d+)?$/ } as const;

/**
 * A query or path value read as a number is written in decimal digits: Ajv's coercion takes whatever
 * JavaScript's `Number()` reads, so `?page=0x10`, `5e0`, `+5` and ` 5` were the page 16 and 5. Checked on the
 * text before Ajv coerces it; a refusal is the same validation answer as any other wrong type.
 */
export function withDecimalNumbers(schema: SchemaNode, validate: TextValidator): TextValidator {
  const numeric = Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const own = numericType(property);
    const items = own === null ? numericType(property.items) : null;
    const type = own ?? items;
    return type === null ? [] : [{ name, type }];
  });
  if (numeric.length === 0) return validate;
  const checked: TextValidator = (data) => {
    const errors: FastifySchemaValidationError[] = [];
    const values = (data ?? {}) as Record<string, unknown>;
    for (const { name, type } of numeric) {
      const value = values[name];
      const texts = Array.isArray(value) ? value : [value];
      if (texts.some((text) => typeof text === 'string' && !DECIMAL[type].test(text)))
        errors.push({
          instancePath: `/${name}`,
          schemaPath: `#/properties/${name}/type`,
          keyword: 'type',
          params: { type },
          message: `must be ${type}`,
        });
    }
    if (errors.length > 0) {
      checked.errors = errors;
      return false;
    }
    const ok = validate(data);
    checked.errors = validate.errors;
    return ok;
  };
  return checked;
}

function fieldOf(error: NonNullable<FastifyError['validation']>[number], context: string | undefined): string {
  const part = context === 'querystring' ? 'query' : context === 'params' ? 'path' : (context ?? 'body');
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const leaf = params.missingProperty ?? params.additionalProperty;
  return `${part}/${[path, leaf].filter(Boolean).join('.')}`.replace(/\/$/, '');
}

type ValidationErrors = NonNullable<FastifyError['validation']>;

/**
 * A body that is one of several forms (`oneOf`: PUT /api/users/{id} takes the whole user, or only its
 * e-mail, or only its name) is judged by the form it is closest to — the one it breaks fewest
 * structural rules of (missing or unknown properties) — instead of listing what every form would say.
 */
function closestForm(errors: ValidationErrors): ValidationErrors {
  const formOf = (e: ValidationErrors[number]) => /^#\/oneOf\/(\d+)\//.exec(e.schemaPath)?.[1];
  const forms = new Map<string, ValidationErrors>();
  for (const e of errors) {
    const form = formOf(e);
    if (form !== undefined) forms.set(form, [...(forms.get(form) ?? []), e]);
  }
  if (forms.size === 0) return errors;
  const structural = (list: ValidationErrors) =>
    list.filter((e) => e.keyword === 'required' || e.keyword === 'additionalProperties').length;
  const [closest] = [...forms.values()].sort((a, b) => structural(a) - structural(b) || a.length - b.length);
  return [
    ...errors.filter((e) => formOf(e) === undefined && !(e.keyword === 'oneOf' && e.schemaPath === '#/oneOf')),
    ...(closest ?? []),
  ];
}

export function handleError(error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) {
    return reply.code(error.statusCode).headers(error.headers).send(error.body);
  }
  // A refusal of a domain service, or a unique index that caught a race: the contract's answer.
  const domain = asDomainError(error);
  if (domain) {
    const answer = restAnswerOf(domain, request);
    return reply.code(answer.status).headers(answer.headers).send(answer.body);
  }
  if (error.validation) {
    // One error per bad field, its first (a short password is refused for its length, not also its strength).
    const errors = new Map<string, string>();
    for (const v of closestForm(error.validation)) {
      const field = fieldOf(v, error.validationContext);
      if (!errors.has(field))
        errors.set(
          field,
          v.params && 'additionalProperty' in v.params ? 'is not allowed' : (v.message ?? 'is invalid'),
        );
    }
    return reply
      .code(400)
      .send({ message: 'Validation failed', errors: [...errors].map(([field, message]) => ({ field, message })) });
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    const answer = unavailable('Database unavailable: the request was not completed; retry shortly');
    return reply.code(503).headers(answer.headers).send(answer.body);
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // Fastify's own 4xx (bad JSON, unsupported media type, body too large): the contract's 400 shape.
    return reply
      .code(status === 413 || status === 415 ? status : 400)
      .send({ message: 'Validation failed', errors: [{ field: 'body', message: error.message }] });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.code(500).send({ message: 'Internal server error' });
}
