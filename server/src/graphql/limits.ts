import {
  parse,
  type ASTNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type ParseOptions,
  type SelectionSetNode,
  type Source,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { createGraphQLError } from 'graphql-yoga';

/**
 * Abuse limits of contracts/schema.graphql ("LIMITS"): a document whose selection nests deeper than
 * {@link MAX_DEPTH} fields, or whose estimated cost is over {@link MAX_COST}, is refused at validation
 * (HTTP 400, GRAPHQL_VALIDATION_FAILED) before any resolver runs. Cost: 1 per selected field, and what
 * is selected below a list-returning field counts {@link LIST_FACTOR} times (a list is assumed to hold
 * that many items). Fragments count where they are spread.
 *
 * Types are read by duck typing (`ofType`, `getFields`), never `instanceof`: yoga may load its own copy
 * of graphql-js (see index.ts).
 */
export const MAX_DEPTH = 8;
export const MAX_COST = 1000;
export const LIST_FACTOR = 10;
/**
 * Introspection (`__schema`, `__type`; off in production) walks recursive meta types: GraphiQL's own
 * query nests `ofType` about a dozen levels. Its subtrees get their own depth limit and no cost (their
 * size is bounded by the schema's).
 */
export const MAX_INTROSPECTION_DEPTH = 20;
/**
 * Tokens a document may have (graphql-js `maxTokens`): the largest operation of the contract has about a
 * hundred, GraphiQL's introspection query a few hundred. Bounds parse time and memory.
 */
export const MAX_TOKENS = 5000;
const META_ROOTS = new Set(['__schema', '__type']);

interface TypeLike {
  ofType?: TypeLike;
  getFields?: () => Record<string, { type: TypeLike }>;
  toString(): string;
}

const unwrap = (type: TypeLike): TypeLike => (type.ofType ? unwrap(type.ofType) : type);
/** `[T]`, `[T]!`, `[T!]!`: the printed type, ignoring an outer non-null, starts with `[`. */
const isList = (type: TypeLike): boolean => String(type).replace(/!$/, '').startsWith('[');

export interface Measure {
  /** Deepest nesting of ordinary fields. */
  depth: number;
  cost: number;
  /** Deepest nesting under an introspection root. */
  metaDepth: number;
}

/**
 * Depth and cost of a selection set under `parent`. A fragment already being expanded on the current
 * path counts nothing more (a cycle is reported by graphql-js's own NoFragmentCycles rule).
 */
export function measure(
  schema: GraphQLSchema,
  selectionSet: SelectionSetNode,
  parent: TypeLike | undefined,
  fragment: (name: string) => FragmentDefinitionNode | null | undefined,
  expanding: ReadonlySet<string> = new Set(),
  meta = false,
): Measure {
  let depth = 0;
  let cost = 0;
  let metaDepth = 0;
  const add = (inner: Measure, level: number, factor: number) => {
    if (meta) {
      metaDepth = Math.max(metaDepth, level + inner.metaDepth);
    } else {
      depth = Math.max(depth, level + inner.depth);
      metaDepth = Math.max(metaDepth, inner.metaDepth);
      cost += factor * inner.cost;
    }
  };
  for (const selection of selectionSet.selections) {
    if (selection.kind === 'Field') {
      const field = parent?.getFields?.()[selection.name.value];
      const entersMeta = !meta && META_ROOTS.has(selection.name.value);
      if (!meta) cost += 1;
      if (!selection.selectionSet) {
        add({ depth: 0, cost: 0, metaDepth: 0 }, 1, 1);
        continue;
      }
      // Introspection roots are not in the schema's Query fields: their subtree is measured untyped.
      const inner = measure(
        schema,
        selection.selectionSet,
        field ? unwrap(field.type) : undefined,
        fragment,
        expanding,
        meta || entersMeta,
      );
      if (entersMeta) metaDepth = Math.max(metaDepth, 1 + inner.metaDepth);
      else add(inner, 1, field && isList(field.type) ? LIST_FACTOR : 1);
      continue;
    }
    if (selection.kind === 'InlineFragment') {
      const typed = selection.typeCondition
        ? (schema.getType(selection.typeCondition.name.value) as unknown as TypeLike | undefined)
        : parent;
      add(measure(schema, selection.selectionSet, typed, fragment, expanding, meta), 0, 1);
      continue;
    }
    const name = selection.name.value;
    const definition = fragment(name);
    if (!definition || expanding.has(name)) continue;
    const typed = schema.getType(definition.typeCondition.name.value) as unknown as TypeLike | undefined;
    add(measure(schema, definition.selectionSet, typed, fragment, new Set([...expanding, name]), meta), 0, 1);
  }
  return { depth, cost, metaDepth };
}

const tooComplex = (message: string, node: ASTNode) =>
  createGraphQLError(message, { nodes: [node], extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: true } });

/** The validation rule: one error per operation over a limit, naming the limit and the measured value. */
export const queryLimits: ValidationRule = (context: ValidationContext) => ({
  OperationDefinition(node) {
    const schema = context.getSchema();
    const root = (
      node.operation === 'mutation'
        ? schema.getMutationType()
        : node.operation === 'subscription'
          ? schema.getSubscriptionType()
          : schema.getQueryType()
    ) as TypeLike | null | undefined;
    const { depth, cost, metaDepth } = measure(schema, node.selectionSet, root ?? undefined, (name) =>
      context.getFragment(name),
    );
    if (metaDepth > MAX_INTROSPECTION_DEPTH) {
      context.reportError(
        tooComplex(
          `Introspection query is too deep: ${metaDepth} levels, the limit is ${MAX_INTROSPECTION_DEPTH}`,
          node,
        ),
      );
    } else if (depth > MAX_DEPTH) {
      context.reportError(tooComplex(`Query is too deep: ${depth} levels of fields, the limit is ${MAX_DEPTH}`, node));
    } else if (cost > MAX_COST) {
      context.reportError(tooComplex(`Query is too expensive: estimated cost ${cost}, the limit is ${MAX_COST}`, node));
    }
  },
});

/**
 * A parse function with {@link MAX_TOKENS}, and a syntax error instead of a crash when the text nests
 * so deeply that the recursive parser runs out of stack (`{ a { a { … } } }` thousands of times: under
 * the body limit, over the call stack). `base` is the parse of the graphql-js copy the caller's errors
 * must come from (yoga's, inside yoga).
 */
export function limitedParse(base: (source: string | Source, options?: ParseOptions) => DocumentNode) {
  return (source: string | Source, options?: ParseOptions): DocumentNode => {
    try {
      return base(source, { ...options, maxTokens: MAX_TOKENS });
    } catch (error) {
      if (error instanceof RangeError) {
        throw createGraphQLError('Syntax Error: the document is nested too deeply to parse', {
          extensions: { code: 'GRAPHQL_PARSE_FAILED', http: { status: 400 } },
        });
      }
      throw error;
    }
  };
}

/** {@link limitedParse} over this module's graphql-js (outside yoga: errors are only caught, never sent). */
export const parseLimited = limitedParse(parse);
