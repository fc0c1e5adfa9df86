import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import {
  Kind,
  parse,
  TypeInfo,
  ValidationContext,
  visit,
  type ASTNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ParseOptions,
  type SelectionSetNode,
  type Source,
  type ValidationRule,
} from 'graphql';
import { createGraphQLError } from 'graphql-yoga';

/**
 * Abuse limits of contracts/schema.graphql ("LIMITS"), checked twice on the same code: by the guard
 * (./index.ts) on the parsed document before identity is checked or anything runs, and as a yoga
 * validation rule ({@link queryLimits}), so no document reaches execution unmeasured. Every check is
 * linear in the size of the document, whatever its fragments: each fragment is measured once and its
 * measure reused wherever it is spread (a chain of fragments each spreading the next twice is 2^n fields
 * expanded, n measures here).
 *
 * Depth and cost: a document whose selection nests deeper than {@link MAX_DEPTH} fields, or whose
 * estimated cost is over {@link MAX_COST}, is refused (HTTP 400, GRAPHQL_VALIDATION_FAILED). Cost: 1 per
 * selected field, and what is selected below a list-returning field counts {@link LIST_FACTOR} times (a
 * list is assumed to hold that many items). Fragments count wherever they are spread, every time.
 *
 * Why our own depth and cost and not graphql-armor's (Escape): its max-depth and cost-limit rules are
 * linear too (they memoize per fragment name), but cost-limit is not schema-aware (it multiplies by
 * `first`/`last` arguments and a per-level factor, so the contract's "lists ×10" cannot be said), and
 * max-depth ignores `__schema` subtrees entirely (unbounded) while it counts `__type` ones as ordinary
 * depth, where the contract gives introspection a depth limit of its own. Its max-aliases rule is used
 * as it is (linear, and it counts every expansion of a fragment). Its max-directives rule is not: a
 * fragment spread already counted once loses its own directives on every further spread
 * (`...F ...F @a @a` counts no directive), so directives are counted here, as written.
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
 * Tokens a document may have (graphql-js `maxTokens`, the same check as graphql-armor's max-tokens): the
 * largest operation of the contract has about a hundred, GraphiQL's introspection query a few hundred.
 * Bounds parse time and memory.
 */
export const MAX_TOKENS = 5000;
/** Operations in one document (only the one named by `operationName` runs; every one is validated). */
export const MAX_OPERATIONS = 10;
/** Fragment definitions in one document; the contract's largest operation uses two, GraphiQL's query three. */
export const MAX_FRAGMENTS = 50;
/** Fragment spreads written in one document (expanded, they count in depth and cost). */
export const MAX_SPREADS = 100;
/** Aliases per operation, fragments expanded (graphql-armor max-aliases; `__typename` aliases are free). */
export const MAX_ALIASES = 15;
/** Directives written in one document. */
export const MAX_DIRECTIVES = 50;
/**
 * Fragments spread inside fragments, one chain: the contract's operations nest two, GraphiQL's query three.
 * A chain of fragments each spreading the next (twice or not) is refused by this before anything runs.
 */
export const MAX_FRAGMENT_NESTING = 8;
/** Directives on one field, fragment, spread or operation: twice what a place can validly hold (`@include`, `@skip`). */
export const MAX_DIRECTIVES_PER_PLACE = 4;
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
  /** Longest chain of fragments spread inside fragments (a spread in the operation itself is 1). */
  fragmentNesting: number;
}

/** A fragment spread inside itself, directly or through others: such a document has no finite measure. */
export class FragmentCycle extends Error {
  constructor(readonly fragment: string) {
    super(`Cannot spread fragment "${fragment}" within itself`);
  }
}

export interface Measurer {
  /** Depth, cost, introspection depth and fragment nesting of one operation; throws {@link FragmentCycle}. */
  operation(node: OperationDefinitionNode): Measure;
  /** Selections visited so far: each fragment's once, however often and wherever it is spread. */
  readonly visits: number;
}

/** What a fragment brings wherever it is spread: the measure of its own fields, and the fragments it spreads. */
interface FragmentPart {
  own: Omit<Measure, 'fragmentNesting'>;
  /** Fragments spread at the fragment's own level (directly or inside its inline fragments), in order. */
  spreads: readonly string[];
  /** The fragment's own place in a chain of fragments: 1 + the longest chain it spreads, at any level. */
  nesting: number;
}

/**
 * Measures the operations of one document as graphql-js runs them: a fragment spread again at the same
 * level of a selection (directly, through an inline fragment, or through another fragment) adds nothing,
 * since graphql-js collects each fragment once per selection set; a field selected twice under one
 * response key costs twice here (an overestimate on the safe side). A fragment's own measure depends only
 * on its own selections (its type condition types them), so it is computed once and reused at every
 * spread, and each selection set expands each fragment at most once: the work is linear in the document
 * times the fragments a level can reach, however exponential the expansion. A spread of an unknown
 * fragment counts nothing (validation refuses the document).
 */
export function measurer(schema: GraphQLSchema, fragments: ReadonlyMap<string, FragmentDefinitionNode>): Measurer {
  // Keyed by whether the spread is under an introspection root, where depth counts as introspection depth.
  const parts = new Map<string, FragmentPart>();
  const expanding = new Set<string>();
  let visits = 0;
  const typeNamed = (name: string) => schema.getType(name) as unknown as TypeLike | undefined;

  /** One level of a selection: its fields, and the fragments it reaches, each once. */
  class Level {
    depth = 0;
    cost = 0;
    metaDepth = 0;
    fragmentNesting = 0;
    private readonly seen = new Set<string>();
    private readonly path: string[] = [];

    constructor(private readonly meta: boolean) {}

    add(inner: Omit<Measure, 'fragmentNesting'>, level: number, factor: number): void {
      if (this.meta) {
        this.metaDepth = Math.max(this.metaDepth, level + inner.metaDepth);
      } else {
        this.depth = Math.max(this.depth, level + inner.depth);
        this.metaDepth = Math.max(this.metaDepth, inner.metaDepth);
        this.cost += factor * inner.cost;
      }
    }

    /** The selections of this level (an inline fragment's are this level's too); spreads are gathered. */
    walk(selectionSet: SelectionSetNode, parent: TypeLike | undefined, spreads: string[]): void {
      for (const selection of selectionSet.selections) {
        visits += 1;
        if (selection.kind === Kind.FIELD) {
          const field = parent?.getFields?.()[selection.name.value];
          const entersMeta = !this.meta && META_ROOTS.has(selection.name.value);
          if (!this.meta) this.cost += 1;
          if (!selection.selectionSet) {
            this.add({ depth: 0, cost: 0, metaDepth: 0 }, 1, 1);
            continue;
          }
          // Introspection roots are not in the schema's Query fields: their subtree is measured untyped.
          const inner = measureSet(
            selection.selectionSet,
            field ? unwrap(field.type) : undefined,
            this.meta || entersMeta,
          );
          this.fragmentNesting = Math.max(this.fragmentNesting, inner.fragmentNesting);
          if (entersMeta) this.metaDepth = Math.max(this.metaDepth, 1 + inner.metaDepth);
          else this.add(inner, 1, field && isList(field.type) ? LIST_FACTOR : 1);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          const typed = selection.typeCondition ? typeNamed(selection.typeCondition.name.value) : parent;
          this.walk(selection.selectionSet, typed, spreads);
        } else {
          spreads.push(selection.name.value);
        }
      }
    }

    /** A fragment spread at this level: its own part once, then what it spreads, each once. */
    expand(name: string): void {
      if (this.path.includes(name)) throw new FragmentCycle(name);
      if (this.seen.has(name)) return;
      const part = fragmentPart(name, this.meta);
      if (!part) return;
      this.seen.add(name);
      this.fragmentNesting = Math.max(this.fragmentNesting, part.nesting);
      this.add(part.own, 0, 1);
      this.path.push(name);
      for (const spread of part.spreads) this.expand(spread);
      this.path.pop();
    }
  }

  function fragmentPart(name: string, meta: boolean): FragmentPart | undefined {
    const key = `${meta ? 'meta' : 'plain'} ${name}`;
    const known = parts.get(key);
    if (known) return known;
    const definition = fragments.get(name);
    if (!definition) return undefined;
    if (expanding.has(name)) throw new FragmentCycle(name);
    expanding.add(name);
    try {
      const level = new Level(meta);
      const spreads: string[] = [];
      level.walk(definition.selectionSet, typeNamed(definition.typeCondition.name.value), spreads);
      // The chains of fragments under this one's fields are in the level already; its own spreads add theirs.
      let nesting = level.fragmentNesting;
      for (const spread of spreads) nesting = Math.max(nesting, fragmentPart(spread, meta)?.nesting ?? 0);
      const part: FragmentPart = {
        own: { depth: level.depth, cost: level.cost, metaDepth: level.metaDepth },
        spreads,
        nesting: nesting + 1,
      };
      parts.set(key, part);
      return part;
    } finally {
      expanding.delete(name);
    }
  }

  function measureSet(selectionSet: SelectionSetNode, parent: TypeLike | undefined, meta: boolean): Measure {
    const level = new Level(meta);
    const spreads: string[] = [];
    level.walk(selectionSet, parent, spreads);
    for (const spread of spreads) level.expand(spread);
    return {
      depth: level.depth,
      cost: level.cost,
      metaDepth: level.metaDepth,
      fragmentNesting: level.fragmentNesting,
    };
  }

  return {
    operation: (node) => measureSet(node.selectionSet, rootTypeOf(schema, node), false),
    get visits() {
      return visits;
    },
  };
}

function rootTypeOf(schema: GraphQLSchema, node: OperationDefinitionNode): TypeLike | undefined {
  const root =
    node.operation === 'mutation'
      ? schema.getMutationType()
      : node.operation === 'subscription'
        ? schema.getSubscriptionType()
        : schema.getQueryType();
  return (root ?? undefined) as unknown as TypeLike | undefined;
}

/** A limit a document is over: the message names the limit and the measured value. */
export interface LimitBreach {
  message: string;
  nodes: readonly ASTNode[];
}

const PLACES: Readonly<Partial<Record<string, string>>> = {
  [Kind.FIELD]: 'field',
  [Kind.FRAGMENT_SPREAD]: 'fragment spread',
  [Kind.INLINE_FRAGMENT]: 'inline fragment',
  [Kind.FRAGMENT_DEFINITION]: 'fragment definition',
  [Kind.OPERATION_DEFINITION]: 'operation',
  [Kind.VARIABLE_DEFINITION]: 'variable definition',
};

/**
 * Every limit of contracts/schema.graphql a parsed document is over; empty when it is within all of
 * them. First what is written (operations, fragments, spreads, directives: one walk of the text), then,
 * only when that is within bounds and no fragment name is defined twice, what the operations expand to
 * (fragment cycles, aliases, depth, cost).
 */
export function limitBreaches(document: DocumentNode, schema: GraphQLSchema): LimitBreach[] {
  const breaches: LimitBreach[] = [];
  const operations: OperationDefinitionNode[] = [];
  const fragments = new Map<string, FragmentDefinitionNode>();
  let duplicate: FragmentDefinitionNode | undefined;
  let spreads = 0;
  let directives = 0;
  let crowded: { node: ASTNode; count: number } | undefined;
  // graphql-js `visit` walks with its own stack, not recursion: any nesting the parser accepted is fine.
  visit(document, {
    enter(node) {
      if (node.kind === Kind.OPERATION_DEFINITION) operations.push(node);
      else if (node.kind === Kind.FRAGMENT_DEFINITION) {
        if (fragments.has(node.name.value)) duplicate ??= node;
        fragments.set(node.name.value, node);
      } else if (node.kind === Kind.FRAGMENT_SPREAD) spreads += 1;
      else if (node.kind === Kind.DIRECTIVE) directives += 1;
      const count = 'directives' in node ? (node.directives?.length ?? 0) : 0;
      if (count > MAX_DIRECTIVES_PER_PLACE && (!crowded || count > crowded.count)) crowded = { node, count };
    },
  });
  const over = (what: string, value: number, limit: number, nodes: readonly ASTNode[] = []) => {
    if (value > limit)
      breaches.push({ message: `Document has too many ${what}: ${value}, the limit is ${limit}`, nodes });
  };
  over('operations', operations.length, MAX_OPERATIONS);
  over('fragment definitions', fragments.size, MAX_FRAGMENTS);
  over('fragment spreads', spreads, MAX_SPREADS);
  over('directives', directives, MAX_DIRECTIVES);
  if (crowded) {
    breaches.push({
      message: `A ${PLACES[crowded.node.kind] ?? 'place'} has too many directives: ${crowded.count}, the limit is ${MAX_DIRECTIVES_PER_PLACE}`,
      nodes: [crowded.node],
    });
  }
  if (duplicate) {
    // Which of the two would run is not for the limits to guess: neither is measured (validation refuses both).
    breaches.push({
      message: `Fragment "${duplicate.name.value}" is defined more than once: the document cannot be measured`,
      nodes: [duplicate],
    });
  }
  if (breaches.length > 0) return breaches;

  const measure = measurer(schema, fragments);
  const measures = new Map<OperationDefinitionNode, Measure>();
  try {
    for (const operation of operations) measures.set(operation, measure.operation(operation));
  } catch (error) {
    if (error instanceof FragmentCycle)
      return [{ message: error.message, nodes: [fragments.get(error.fragment) ?? document] }];
    // Within the limits above the recursion is shallow; a stack that still runs out is a refusal, not a 500.
    if (error instanceof RangeError) return [{ message: 'Document is nested too deeply to measure', nodes: [] }];
    throw error;
  }

  breaches.push(...aliasBreaches(document, schema));
  for (const [node, { depth, cost, metaDepth, fragmentNesting }] of measures) {
    if (fragmentNesting > MAX_FRAGMENT_NESTING)
      breaches.push({
        message: `Fragments are nested too deeply: ${fragmentNesting} levels, the limit is ${MAX_FRAGMENT_NESTING}`,
        nodes: [node],
      });
    if (metaDepth > MAX_INTROSPECTION_DEPTH)
      breaches.push({
        message: `Introspection query is too deep: ${metaDepth} levels, the limit is ${MAX_INTROSPECTION_DEPTH}`,
        nodes: [node],
      });
    if (depth > MAX_DEPTH)
      breaches.push({
        message: `Query is too deep: ${depth} levels of fields, the limit is ${MAX_DEPTH}`,
        nodes: [node],
      });
    if (cost > MAX_COST)
      breaches.push({
        message: `Query is too expensive: estimated cost ${cost}, the limit is ${MAX_COST}`,
        nodes: [node],
      });
  }
  return breaches;
}

/**
 * graphql-armor's max-aliases rule over a validation context of its own (it reads only the document's
 * fragments from it), its refusal reported instead of thrown. Called only on a document without fragment
 * cycles: on a cycle its count is meaningless (graphql-js's NoFragmentCycles refuses such documents).
 */
function aliasBreaches(document: DocumentNode, schema: GraphQLSchema): LimitBreach[] {
  const breaches: LimitBreach[] = [];
  const context = new ValidationContext(schema, document, new TypeInfo(schema), () => undefined);
  let operation: OperationDefinitionNode | undefined;
  const rule = maxAliasesRule({
    n: MAX_ALIASES,
    propagateOnRejection: false,
    onReject: [
      (_context, error) => {
        // Its message, without the "Syntax Error: " it puts before every refusal: "Aliases limit of 15 exceeded, found 16."
        breaches.push({ message: error.message.replace(/^Syntax Error: /, ''), nodes: operation ? [operation] : [] });
      },
    ],
  })(context);
  visit(document, {
    OperationDefinition(node) {
      operation = node;
      rule.OperationDefinition.enter(node);
      return false;
    },
  });
  return breaches;
}

/** The validation rule: every limit a document is over, one error each, naming the limit. */
export const queryLimits: ValidationRule = (context) => ({
  Document(node) {
    for (const breach of limitBreaches(node, context.getSchema())) {
      context.reportError(
        createGraphQLError(breach.message, {
          nodes: breach.nodes,
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: true },
        }),
      );
    }
  },
});

/** A syntax error that is a limit of the text, not a mistake in it: marked so the guard refuses it before identity. */
const parseLimit = (message: string) =>
  createGraphQLError(message, { extensions: { code: 'GRAPHQL_PARSE_FAILED', limit: true, http: { status: 400 } } });

/**
 * graphql-js's own refusal at `maxTokens` (its message says "more that N tokens" in 16.15, so both
 * spellings are read).
 */
const OVER_TOKENS = /contains more (?:than|that) \d+ tokens/;

/**
 * A parse function with {@link MAX_TOKENS}, and a syntax error instead of a crash when the text nests
 * so deeply that the recursive parser runs out of stack (`{ a { a { … } } }` thousands of times: under
 * the body limit, over the call stack). Which of the two a deeply nested text meets first depends on how
 * far the engine has optimized the parser, so both are limits, both named. `base` is the parse of the
 * graphql-js copy the caller's errors must come from (yoga's, inside yoga).
 */
export function limitedParse(base: (source: string | Source, options?: ParseOptions) => DocumentNode) {
  return (source: string | Source, options?: ParseOptions): DocumentNode => {
    try {
      return base(source, { ...options, maxTokens: MAX_TOKENS });
    } catch (error) {
      if (error instanceof RangeError) throw parseLimit('Syntax Error: the document is nested too deeply to parse');
      if (error instanceof Error && OVER_TOKENS.test(error.message))
        throw parseLimit(`Syntax Error: the document has more than ${MAX_TOKENS} tokens, the limit`);
      throw error;
    }
  };
}

/** {@link limitedParse} over this module's graphql-js (outside yoga: errors are only caught, never sent). */
export const parseLimited = limitedParse(parse);

/** A syntax error that is a limit (tokens, nesting) rather than a mistake in the text. */
export const isParseLimit = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  (error as { extensions?: { limit?: unknown } }).extensions?.limit === true;
