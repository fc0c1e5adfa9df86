import type { GraphQLSchema } from 'graphql';
import type { OperationName } from '../access/policies';
import type { MutationArgs, QueryArgs } from './types';

/**
 * Which service operation each root field of contracts/schema.graphql runs, so the GraphQL door
 * filters a field with that operation's policy (server/src/access/policies.ts) before the document
 * runs, and the service checks it again when it does. Declared here, typed against the resolvers'
 * fields, never read from the schema's prose: editing a description changes no authorization. The
 * descriptions' "Permission:" lines are documentation, held equal to these policies by
 * server/src/graphql/field-policies.test.ts.
 */
export const FIELD_OPERATIONS: {
  readonly query: { readonly [F in keyof QueryArgs]: OperationName };
  readonly mutation: { readonly [F in keyof MutationArgs]: OperationName };
} = {
  query: {
    users: 'users.list',
    usersPage: 'users.page',
    userInfos: 'users.me',
    userInstances: 'users.instanceLinks',
    instances: 'instances.summaries',
    onlineUsers: 'users.online',
    roles: 'roles.list',
    departments: 'departments.list',
    connections: 'instances.connections',
    auditRecords: 'audit.list',
    auditNames: 'audit.names',
    attention: 'attention.list',
  },
  mutation: {
    logIn: 'auth.signIn',
    refreshToken: 'auth.refresh',
    connected: 'users.setConnected',
    disconnected: 'users.setConnected',
    newUser: 'users.create',
    updateUser: 'users.update',
    updateUserPassword: 'users.changeOwnPassword',
    deleteUser: 'users.remove',
    disconnectUser: 'users.disconnect',
    deleteUserInstance: 'users.removeInstanceLink',
    updateUserSettings: 'users.updateSettings',
    createDepartment: 'departments.create',
    updateDepartment: 'departments.update',
    createConnection: 'instances.createConnection',
    updateConnection: 'instances.updateConnection',
  },
};

/** Introspection fields: public, and off in production (server/src/graphql/yoga-plugins.ts). */
export const META_FIELDS: ReadonlySet<string> = new Set(['__schema', '__type', '__typename']);

/**
 * The operation a root field runs, or undefined for a field this map does not know (the door refuses
 * it: what it cannot read it does not pass on).
 */
export function operationOfField(
  type: 'query' | 'mutation' | 'subscription',
  field: string,
): OperationName | undefined {
  if (type === 'subscription') return undefined;
  const table: Readonly<Record<string, OperationName>> = FIELD_OPERATIONS[type];
  return Object.prototype.hasOwnProperty.call(table, field) ? table[field] : undefined;
}

/**
 * Refuses to build the GraphQL route when the schema's root fields and this map disagree (a field
 * without an operation would be decided by nobody; deny by default).
 */
export function assertEveryFieldMapped(schema: GraphQLSchema): void {
  const check = (type: 'query' | 'mutation', fields: readonly string[]) => {
    const mapped = Object.keys(FIELD_OPERATIONS[type]);
    const unmapped = fields.filter((field) => !mapped.includes(field));
    const stale = mapped.filter((field) => !fields.includes(field));
    if (unmapped.length || stale.length)
      throw new Error(
        `GraphQL ${type} fields and server/src/graphql/field-policies.ts disagree: unmapped ${unmapped.join(', ') || '—'}; not in the schema ${stale.join(', ') || '—'}`,
      );
  };
  check('query', Object.keys(schema.getQueryType()?.getFields() ?? {}));
  check('mutation', Object.keys(schema.getMutationType()?.getFields() ?? {}));
  if (schema.getSubscriptionType()) throw new Error('GraphQL subscriptions have no policies (none in the contract)');
}
