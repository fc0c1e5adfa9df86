/**
 * The e-mail address rule of every place that accepts one: the user form, the settings screen, the
 * server's users service (REST and GraphQL alike) and `npm run admin:create`.
 *
 * It is the rule REST already applies to bodies before any handler runs: contracts/openapi.yaml's
 * `Email` (`format: email`, 3–254 characters), which the server validates with ajv-formats' full
 * `email` format — the expression below, copied from it — so an address one protocol accepts the
 * other accepts too (server/src/users/rules.test.ts checks them against each other).
 */
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

export const EMAIL_MIN_LENGTH = 3;
export const EMAIL_MAX_LENGTH = 254;

/**
 * Whether `value` is an acceptable e-mail address, exactly as given: no surrounding space, 3–254
 * characters, the contract's format.
 */
export function isValidEmail(value: string): boolean {
  return value.length >= EMAIL_MIN_LENGTH && value.length <= EMAIL_MAX_LENGTH && EMAIL.test(value);
}

/** How addresses are stored and compared: lower-cased (uniqueness ignores case). */
export const normalizeEmail = (value: string): string => value.toLowerCase();
