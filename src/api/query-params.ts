import { badRequest } from '../catalog/errors.ts';

/** Each query parameter a route takes, with the values it honours. */
export type QuerySpec = Readonly<Record<string, readonly string[]>>;

/**
 * Refuses query parameters a route does not take, or values it does not honour,
 * with a 400 naming them: a write or delete never silently ignores what it was asked.
 */
export function acceptQuery(query: unknown, spec: QuerySpec): void {
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    const honoured = spec[name];
    if (!honoured) {
      const takes = Object.keys(spec);
      throw badRequest(`Unknown query parameter '${name}'; this route takes ${takes.length ? takes.join(', ') : 'none'}`);
    }
    if (typeof value !== 'string' || !honoured.includes(value)) {
      throw badRequest(`Query parameter '${name}' must be ${honoured.join(' or ')}, got ${JSON.stringify(value)}`);
    }
  }
}
