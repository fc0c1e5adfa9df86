/**
 * The steps of the differential cases (server/src/parity/*.test.ts) as plain data, so fast-check prints
 * and shrinks them readably, and how each runs on a twin: the REST twin through contracts/openapi.yaml,
 * the GraphQL twin through contracts/schema.graphql. A step answers one or more named outcomes; the
 * runner compares them pairwise (server/src/test-support/parity.ts `agree`) and then the rows.
 *
 * Values are VALID AT THE PROTOCOL LEVEL for both (right JSON types, no unknown properties, unique
 * instance ids: REST's JSON-schema shape rules are not what is compared) and mix valid and invalid
 * VALUES (lengths, blank, Unicode, patterns, e-mail format and case, weak passwords, unknown
 * references, duplicates, NUL), which both protocols must judge alike.
 */
export * from './parity-step-data';
export { clearSessions, type Observation } from './parity-step-helpers';
export * from './parity-case';
export * from './parity-values';
export * from './parity-step-arbitraries';
export * from './parity-session-arbitraries';
export {
  connectionCreateStep,
  connectionUpdateStep,
  departmentCreateStep,
  departmentUpdateStep,
} from './parity-step-records';
