import { badRequest } from '../../catalog/errors.ts';

/** Rest.li action parameters: the body is a JSON object keyed by parameter name. */
export type ActionBody = Record<string, unknown>;

export function actionBody(body: unknown): ActionBody {
  if (body === undefined || body === null || body === '') return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('Request body must be a JSON object of action parameters');
  return body as ActionBody;
}

/**
 * Refuses any parameter an action does not take, in the body or the query
 * string: a destructive action never silently ignores what it was asked.
 */
export function acceptOnly(body: ActionBody, query: Readonly<Record<string, unknown>>, action: string, names: readonly string[]): void {
  const extra = Object.keys(body).find((k) => !names.includes(k)) ?? Object.keys(query).find((k) => k !== 'action');
  if (extra !== undefined) throw badRequest(`Unknown parameter '${extra}' for action '${action}'; it takes ${names.join(', ')}`);
}

const describe = (v: unknown) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);

export function requireParam(body: ActionBody, name: string): unknown {
  const v = body[name];
  if (v === undefined || v === null) throw badRequest(`Parameter '${name}' is required`);
  return v;
}

export function stringParam(body: ActionBody, name: string, required: true): string;
export function stringParam(body: ActionBody, name: string, required?: false): string | undefined;
export function stringParam(body: ActionBody, name: string, required = false): string | undefined {
  const v = required ? requireParam(body, name) : body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw badRequest(`Parameter '${name}' must be a string, got ${describe(v)}`);
  return v;
}

/** The largest value of a Rest.li `int` parameter (a Java int). */
export const MAX_INT = 2_147_483_647;

/** Integers may arrive as JSON numbers or, from Rest.li clients, as numeric strings. */
export function intParam(body: ActionBody, name: string, opts: { required?: boolean; min?: number; max?: number } = {}): number | undefined {
  const v = opts.required ? requireParam(body, name) : body[name];
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw badRequest(`Parameter '${name}' must be an integer, got ${describe(v)}`);
  if (opts.min !== undefined && n < opts.min) throw badRequest(`Parameter '${name}' must be at least ${opts.min}, got ${n}`);
  if (opts.max !== undefined && n > opts.max) throw badRequest(`Parameter '${name}' must be at most ${opts.max}, got ${n}`);
  return n;
}

/** Booleans may arrive as JSON booleans or as "true"/"false" strings. */
export function boolParam(body: ActionBody, name: string): boolean | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  throw badRequest(`Parameter '${name}' must be a boolean, got ${describe(v)}`);
}

/** Dispatches `POST <resource>?action=<name>` to its handler, or 400 for an unknown action. */
export function unknownAction(resource: string, action: string | undefined) {
  return action
    ? badRequest(`Unknown action '${action}' for resource '${resource}'`)
    : badRequest(`Missing 'action' query parameter for POST /${resource}`);
}
