/**
 * The cross-protocol differential harness (server/src/parity/*.test.ts): two apps built identically on
 * two databases seeded identically (the "twins"), one driven through REST (contracts/openapi.yaml), the
 * other through GraphQL (contracts/schema.graphql). A case is a sequence of steps; each step runs on
 * both twins, and the two answers, normalised to the domain kinds of server/src/base/domain-error.ts
 * (table below), must agree, and so must the rows the step touched. Before every case both twins are
 * put back to their baseline, sequences included, so serial ids stay aligned across the twins.
 */
export * from './parity-fixture';
export * from './parity-outcomes';
export * from './parity-twin';
export * from './parity-twins';
export * from './parity-tally';
