import { ApiError, getJson } from './api.ts';
import { entityName } from './entity-kinds.ts';

/** A stored aspect's value, as JSON. */
export type AspectValue = Record<string, unknown>;

/**
 * Every latest aspect stored for an entity, by name (DataHub's OpenAPI v3 entity read), or null when nothing is
 * stored for it. What a page shows of any entity type, whatever its GraphQL type declares.
 */
export async function fetchAspects(urn: string): Promise<Record<string, AspectValue> | null> {
  try {
    const body = await getJson<Record<string, unknown>>(`/openapi/v3/entity/${encodeURIComponent(entityName(urn))}/${encodeURIComponent(urn)}`);
    const out: Record<string, AspectValue> = {};
    for (const [name, wrapped] of Object.entries(body)) {
      const value = (wrapped as { value?: unknown } | null)?.value;
      if (name !== 'urn' && value && typeof value === 'object') out[name] = value as AspectValue;
    }
    return out;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

export const asList = (v: unknown): AspectValue[] => (Array.isArray(v) ? v.filter((x): x is AspectValue => typeof x === 'object' && x !== null) : []);
export const asStrings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
export const asString = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The dataset and field path a schemaField urn names: urn:li:schemaField:(<dataset urn>,<field path>). */
export function fieldOf(urn: string): { dataset: string; fieldPath: string } | null {
  const m = /^urn:li:schemaField:\((.*),([^,]*)\)$/.exec(urn);
  return m ? { dataset: m[1]!, fieldPath: m[2]! } : null;
}
