import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import {
  BREAK,
  execute,
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  visit,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { CatalogError } from '../../catalog/errors.ts';
import { fromStoreError, GRAPHQL_CODE, UNKNOWN_ERROR_MESSAGE } from '../errors.ts';
import { graphqlNestsDeeper, MAX_DOCUMENT_NESTING } from './document-nesting.ts';
import type { GraphqlContext } from './schema.ts';

export interface GraphqlRequest {
  readonly query: string;
  readonly variables?: Record<string, unknown> | null;
  readonly operationName?: string | null;
}

/** A GraphQL error as DataHub sends it. */
export interface GraphqlErrorBody {
  readonly message: string;
  readonly locations?: ReadonlyArray<{ line: number; column: number }>;
  readonly path?: ReadonlyArray<string | number>;
  readonly extensions: { readonly code: number; readonly type: string };
}

/** DataHub's response: errors (if any), data (once executed), and always `extensions`. */
export interface GraphqlResponse {
  readonly errors?: readonly GraphqlErrorBody[];
  readonly data?: Record<string, unknown> | null;
  readonly extensions: Record<string, unknown>;
}

/** A validated document, compiled once per operation name it is run with. */
interface Compiled {
  readonly document: DocumentNode;
  /** Counted against the caller's budget of expensive operations (see rate-limit.ts). */
  readonly expensive: boolean;
  readonly compile: (operationName: string | undefined) => CompiledQuery | ExecutionResult;
}

type Prepared = Compiled | { readonly errors: readonly GraphQLError[] };

const MAX_CACHED_DOCUMENTS = 1000;
/** Larger documents are still served, just not kept: a compiled document weighs hundreds of times its text. */
const MAX_CACHED_QUERY_CHARS = 8 * 1024;
/** The cache holds at most this much query text in all, so it cannot be grown to gigabytes of compiled code. */
const MAX_CACHED_TOTAL_CHARS = 1024 * 1024;
/** Bounds the parser's work on hostile input before validation even starts. */
const MAX_TOKENS = 20_000;

/** What one operation may cost, checked before it is compiled or run; each refusal names its limit. */
export interface GraphqlLimits {
  readonly maxDepth: number;
  readonly maxAliases: number;
  readonly maxCost: number;
  /** An operation estimated above this cost is expensive, like one that searches. */
  readonly expensiveCost: number;
}

export const DEFAULT_GRAPHQL_LIMITS: GraphqlLimits = { maxDepth: 15, maxAliases: 30, maxCost: 100_000, expensiveCost: 5_000 };

/** Fields whose cost grows with the data (scans of entities, timeseries or runs), whatever the estimate says. */
const EXPENSIVE_FIELDS: ReadonlySet<string> = new Set([
  'search',
  'searchAcrossEntities',
  'scrollAcrossEntities',
  'searchAcrossLineage',
  'scrollAcrossLineage',
  'datasetProfiles',
  'runs',
  'browse',
  'browseV2',
  'entities',
  'listDomains',
  'listGroups',
  'getRootGlossaryTerms',
  'getRootGlossaryNodes',
  'listDataProductAssets',
  'incidents',
  'operations',
  'usageStats',
  'statsSummary',
]);

/** graphql-armor's rules, run with graphql-js's own validation; introspection (GraphiQL) is not counted. */
const costRules = (limits: GraphqlLimits, costs: WeakMap<DocumentNode, number>): ValidationRule[] => [
  maxDepthRule({ n: limits.maxDepth, ignoreIntrospection: true, exposeLimits: true }),
  maxAliasesRule({ n: limits.maxAliases, exposeLimits: true }),
  costLimitRule({
    maxCost: limits.maxCost,
    ignoreIntrospection: true,
    exposeLimits: true,
    // The estimate of each accepted operation, kept for the expensive-operation budget.
    onAccept: [
      (context, details) => {
        const document = context?.getDocument();
        if (document) costs.set(document, Math.max(costs.get(document) ?? 0, details.n));
      },
    ],
  }),
];

function isExpensive(document: DocumentNode, cost: number, limits: GraphqlLimits): boolean {
  if (cost > limits.expensiveCost) return true;
  let found = false;
  visit(document, {
    Field(node) {
      if (EXPENSIVE_FIELDS.has(node.name.value)) {
        found = true;
        return BREAK;
      }
      return undefined;
    },
  });
  return found;
}

const badRequest = GRAPHQL_CODE.BAD_REQUEST;

/**
 * Runs GraphQL requests: graphql-js parses and validates, graphql-jit compiles the
 * operation into a function. Parsing, validation and compilation cost far more
 * than executing a small query, so each query text is prepared once and its
 * outcome (compiled operations or errors) kept in a bounded LRU map.
 */
export class GraphqlExecutor {
  private readonly documents = new Map<string, Prepared>();
  private cachedChars = 0;
  private readonly rules: readonly ValidationRule[];
  private readonly costs = new WeakMap<DocumentNode, number>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly limits: GraphqlLimits = DEFAULT_GRAPHQL_LIMITS,
  ) {
    this.rules = [...specifiedRules, ...costRules(limits, this.costs)];
  }

  private prepare(query: string): Prepared {
    const hit = this.documents.get(query);
    if (hit) {
      this.documents.delete(query);
      this.documents.set(query, hit);
      return hit;
    }
    let prepared: Prepared;
    try {
      if (graphqlNestsDeeper(query)) {
        throw new GraphQLError(`Syntax Error: Query nests selections, arguments or lists deeper than ${MAX_DOCUMENT_NESTING} levels.`);
      }
      const document = parse(query, { maxTokens: MAX_TOKENS });
      const errors = validate(this.schema, document, this.rules);
      if (errors.length > 0) {
        prepared = { errors };
      } else {
        const operations = new Map<string | undefined, CompiledQuery | ExecutionResult>();
        const compile = (operationName: string | undefined) => {
          let compiled = operations.get(operationName);
          if (!compiled) {
            compiled = compileQuery(this.schema, document, operationName);
            // Bounded: only names the document defines compile; any other name yields one error result.
            if (operations.size < 16) operations.set(operationName, compiled);
          }
          return compiled;
        };
        prepared = { document, compile, expensive: isExpensive(document, this.costs.get(document) ?? 0, this.limits) };
      }
    } catch (e) {
      if (!(e instanceof GraphQLError)) throw e;
      prepared = { errors: [e] };
    }
    if (query.length <= MAX_CACHED_QUERY_CHARS) {
      while (this.documents.size >= MAX_CACHED_DOCUMENTS || (this.documents.size > 0 && this.cachedChars + query.length > MAX_CACHED_TOTAL_CHARS)) {
        const oldest = this.documents.keys().next().value as string;
        this.documents.delete(oldest);
        this.cachedChars -= oldest.length;
      }
      this.documents.set(query, prepared);
      this.cachedChars += query.length;
    }
    return prepared;
  }

  /**
   * Executes one request. `onUnexpected` receives every error that is masked
   * as `An unknown error occurred.`, so the caller can log it with the request id.
   * `admit` runs before a valid operation executes, told whether it is expensive; it may throw to refuse it.
   */
  async run(
    request: GraphqlRequest,
    context: GraphqlContext,
    onUnexpected: (err: unknown, path: readonly (string | number)[]) => void,
    admit?: (expensive: boolean) => Promise<void>,
  ): Promise<GraphqlResponse> {
    const prepared = this.prepare(request.query);
    if ('errors' in prepared) return { errors: prepared.errors.map((e) => formatError(e, onUnexpected)), extensions: {} };
    await admit?.(prepared.expensive);
    const operation = prepared.compile(request.operationName ?? undefined);
    let result = isCompiledQuery(operation) ? await operation.query(undefined, context, request.variables ?? {}) : operation;
    // No data: refused before execution began (the spec then leaves `data` out), so nothing ran.
    // graphql-js, the reference, decides and explains it (see `reference`).
    if (result.data === undefined && result.errors) result = await this.reference(prepared.document, request, context);
    const errors = result.errors?.map((e) => formatError(e, onUnexpected));
    // DataHub's key order: errors, data, extensions.
    return { ...(errors && errors.length > 0 ? { errors } : {}), ...(result.data !== undefined ? { data: result.data } : {}), extensions: {} };
  }

  /**
   * graphql-js's own execution, for the rare request graphql-jit refuses before
   * running: jit names a bad nested input field as if it were a variable
   * (`"$deprecated"` for `$input.deprecated`) and refuses a non-null variable
   * left out although it has a default, where graphql-js gives the exact input
   * path or runs the request. Nothing ran yet, so running it here is safe.
   */
  private reference(document: DocumentNode, request: GraphqlRequest, context: GraphqlContext): Promise<ExecutionResult> {
    return Promise.resolve(
      execute({
        schema: this.schema,
        document,
        variableValues: request.variables ?? undefined,
        operationName: request.operationName ?? undefined,
        contextValue: context,
      }),
    );
  }
}

/**
 * How graphql-js and graphql-jit word the faults of completing a value: a null
 * in a non-null field, a value a scalar cannot represent. jit passes on only the
 * message of these, not the error, so the wording is what tells them apart.
 */
const OUTPUT_FAULT = /^(Cannot return null for non-nullable field |Expected a value of type "|[A-Za-z_]\w* cannot represent )/;

/**
 * Field errors carry the domain error's code. The server's own faults are
 * masked and logged: a resolver that threw anything else, or a value the schema
 * cannot return. The rest is the request's fault (400): parsing, validation,
 * variable coercion, and arguments refused at execution (an explicit null for a
 * non-null argument whose variable has a default).
 */
function formatError(e: GraphQLError, onUnexpected: (err: unknown, path: readonly (string | number)[]) => void): GraphqlErrorBody {
  const where = { ...(e.locations ? { locations: e.locations } : {}), ...(e.path ? { path: e.path } : {}) };
  const original = fromStoreError(e.originalError) ?? e.originalError;
  if (original instanceof CatalogError) {
    if (original.code === 'INTERNAL') onUnexpected(original, e.path ?? []);
    return { message: original.message, ...where, extensions: GRAPHQL_CODE[original.code] };
  }
  const serverFault = e.path !== undefined && ((original != null && !(original instanceof GraphQLError)) || OUTPUT_FAULT.test(e.message));
  if (!serverFault) return { message: e.message, ...where, extensions: badRequest };
  onUnexpected(original ?? e, e.path!);
  return { message: UNKNOWN_ERROR_MESSAGE, ...where, extensions: GRAPHQL_CODE.INTERNAL };
}
