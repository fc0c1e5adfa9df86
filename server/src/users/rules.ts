import { fullFormats } from 'ajv-formats/dist/formats.js';
import { isValidEmail, normalizeEmail } from '../../../src/domain/email';
import { DomainError, invalid } from '../base/domain-error';
import { passwordRefusal } from '../auth/password-policy';

/**
 * The rules on a user's fields, one copy for every caller (REST, GraphQL, `npm run admin:create`).
 * They match contracts/openapi.yaml (`Username`, `PersonName`, `Email`, `Password`, `UserUpdate.image`)
 * and the argument descriptions of contracts/schema.graphql, so a value one protocol accepts the
 * other accepts too. Lengths count characters (code points), as JSON Schema does, not UTF-16 units.
 */

const USERNAME = /^[A-Za-z0-9._-]{3,40}$/;
export const NAME_MAX_LENGTH = 120;
export const IMAGE_MAX_LENGTH = 2048;

const length = (value: string): number => [...value].length;

export function checkUsername(value: string): string {
  if (!USERNAME.test(value)) throw invalid('username', 'username must be 3–40 characters of A–Z a–z 0–9 . _ -');
  return value;
}

/** A person's name: at most 120 characters, not blank; stored without surrounding space. */
export function checkName(value: string): string {
  const name = value.trim();
  if (name.length === 0 || length(value) > NAME_MAX_LENGTH)
    throw invalid('name', `name must be 1–${NAME_MAX_LENGTH} characters and not blank`);
  return name;
}

/** An e-mail address (src/domain/email.ts), stored lower-cased. */
export function checkEmail(value: string): string {
  if (!isValidEmail(value)) throw invalid('email', 'email must be a valid address of at most 254 characters');
  return normalizeEmail(value);
}

/** A new password: 8–128 characters and not weak (src/domain/password-strength.ts). */
export function checkPassword(value: string): string {
  const refusal = passwordRefusal(value);
  if (refusal) throw invalid('password', refusal);
  return value;
}

/** The contract's `format: uri`, as REST validates it before a handler runs (ajv-formats, full mode). */
const uriFormat = fullFormats.uri as (value: string) => boolean;

/** An avatar: an absolute http(s) URL (the contract's `uri` format) of at most 2048 characters. */
export function checkImage(value: string): string {
  let ok = length(value) <= IMAGE_MAX_LENGTH && uriFormat(value);
  if (ok) {
    try {
      const url = new URL(value);
      ok = url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      ok = false;
    }
  }
  if (!ok) throw invalid('image', 'image must be an absolute http(s) URL of at most 2048 characters');
  return value;
}

/**
 * The rules contracts/openapi.yaml names with `x-rule` (what JSON Schema cannot state), for the REST
 * validator (server/src/app.ts) to apply with the schema: the same functions the service calls, so a
 * request is judged once, every bad field named, whichever protocol carries it. Each answers why the
 * value is refused, or null.
 */
export const CONTRACT_RULES: Readonly<Record<string, (value: string) => string | null>> = {
  'not-blank': (value) => (value.trim().length === 0 ? 'must not be blank' : null),
  'password-strength': (value) => passwordRefusal(value),
  'http-url': (value) => refusalOf(() => checkImage(value)),
};

function refusalOf(check: () => unknown): string | null {
  try {
    check();
    return null;
  } catch (error) {
    if (error instanceof DomainError) return error.message;
    throw error;
  }
}
