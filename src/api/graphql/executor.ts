import { execute, GraphQLError, parse, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import { CatalogError } from '../../catalog/errors.ts';
import { GRAPHQL_CODE, UNKNOWN_ERROR_MESSAGE } from '../errors.ts';
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

type Prepared = { readonly document: DocumentNode } | { readonly errors: readonly GraphQLError[] };

const MAX_CACHED_DOCUMENTS = 1000;
/** Larger documents are still served, just not kept. */
const MAX_CACHED_QUERY_CHARS = 32 * 1024;
/** Bounds the parser's work on hostile input before validation even starts. */
const MAX_TOKENS = 20_000;

const badRequest = GRAPHQL_CODE.BAD_REQUEST;

/**
 * Runs GraphQL requests with graphql-js. Parsing and validation cost more than
 * executing a small query, so each query text is parsed and validated once and
 * its outcome (document or errors) kept in a bounded LRU map.
 */
export class GraphqlExecutor {
  private readonly documents = new Map<string, Prepared>();

  constructor(private readonly schema: GraphQLSchema) {}

  private prepare(query: string): Prepared {
    const hit = this.documents.get(query);
    if (hit) {
      this.documents.delete(query);
      this.documents.set(query, hit);
      return hit;
    }
    let prepared: Prepared;
    try {
      const document = parse(query, { maxTokens: MAX_TOKENS });
      const errors = validate(this.schema, document);
      prepared = errors.length > 0 ? { errors } : { document };
    } catch (e) {
      if (!(e instanceof GraphQLError)) throw e;
      prepared = { errors: [e] };
    }
    if (query.length <= MAX_CACHED_QUERY_CHARS) {
      if (this.documents.size >= MAX_CACHED_DOCUMENTS) this.documents.delete(this.documents.keys().next().value as string);
      this.documents.set(query, prepared);
    }
    return prepared;
  }

  /**
   * Executes one request. `onUnexpected` receives every error that is masked
   * as `An unknown error occurred.`, so the caller can log it with the request id.
   */
  async run(request: GraphqlRequest, context: GraphqlContext, onUnexpected: (err: unknown, path: readonly (string | number)[]) => void): Promise<GraphqlResponse> {
    const prepared = this.prepare(request.query);
    if ('errors' in prepared) return { errors: prepared.errors.map((e) => formatError(e, onUnexpected)), extensions: {} };
    const result = await execute({
      schema: this.schema,
      document: prepared.document,
      variableValues: request.variables ?? undefined,
      operationName: request.operationName ?? undefined,
      contextValue: context,
    });
    const errors = result.errors?.map((e) => formatError(e, onUnexpected));
    // DataHub's key order: errors, data, extensions.
    return { ...(errors && errors.length > 0 ? { errors } : {}), ...(result.data !== undefined ? { data: result.data } : {}), extensions: {} };
  }
}

/**
 * Errors without a path come from parsing, validation or variable coercion: the
 * request is wrong (400). Field errors carry the domain error's code; anything
 * else is unexpected and masked.
 */
function formatError(e: GraphQLError, onUnexpected: (err: unknown, path: readonly (string | number)[]) => void): GraphqlErrorBody {
  const where = { ...(e.locations ? { locations: e.locations } : {}), ...(e.path ? { path: e.path } : {}) };
  const original = e.originalError;
  if (!e.path || original === undefined || original === null || original instanceof GraphQLError) {
    return { message: e.message, ...where, extensions: badRequest };
  }
  if (original instanceof CatalogError) {
    if (original.code === 'INTERNAL') onUnexpected(original, e.path);
    return { message: original.message, ...where, extensions: GRAPHQL_CODE[original.code] };
  }
  onUnexpected(original, e.path);
  return { message: UNKNOWN_ERROR_MESSAGE, ...where, extensions: GRAPHQL_CODE.INTERNAL };
}
