import { badRequest } from './errors.ts';
import type { Json } from '../storage/store.ts';

/** A MetadataChangeProposal after its wire form has been checked. */
export interface Proposal {
  readonly entityType: string;
  readonly urn: string;
  readonly changeType: string;
  readonly aspectName: string;
  /** The aspect JSON, parsed from `aspect.value` (a string on the wire). */
  readonly value: unknown;
  readonly systemMetadata: Json | null;
}

const CHANGE_TYPES = ['UPSERT', 'CREATE', 'UPDATE', 'DELETE', 'PATCH', 'RESTATE'];
/** Change types that write the whole aspect; the others are refused with a clear message. */
const WHOLE_ASPECT_WRITES = new Set(['UPSERT', 'CREATE', 'UPDATE', 'RESTATE']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function requiredString(obj: Record<string, unknown>, field: string, path: string): string {
  const v = obj[field];
  if (v === undefined || v === null) throw badRequest(`Parameter '${path}.${field}' is required`);
  if (typeof v !== 'string') throw badRequest(`Parameter '${path}.${field}' must be a string`);
  return v;
}

/**
 * Checks one MCP exactly as the Python REST emitter sends it: the aspect value
 * is JSON serialized into a string under `aspect.value`.
 */
export function parseProposal(raw: unknown, path: string): Proposal {
  if (!isObject(raw)) throw badRequest(`Parameter '${path}' must be a MetadataChangeProposal object`);
  const entityType = requiredString(raw, 'entityType', path);
  if (raw.entityUrn === undefined && raw.entityKeyAspect !== undefined) {
    throw badRequest(`Parameter '${path}.entityUrn' is required: Almanac does not accept entityKeyAspect without entityUrn`);
  }
  const urn = requiredString(raw, 'entityUrn', path);
  const changeType = requiredString(raw, 'changeType', path);
  if (!CHANGE_TYPES.includes(changeType)) {
    throw badRequest(`Parameter '${path}.changeType' must be one of ${CHANGE_TYPES.join(', ')}, got ${changeType}`);
  }
  if (!WHOLE_ASPECT_WRITES.has(changeType)) {
    throw badRequest(`Parameter '${path}.changeType' ${changeType} is not supported; send the whole aspect with UPSERT`);
  }
  const aspectName = requiredString(raw, 'aspectName', path);
  const aspect = raw.aspect;
  if (!isObject(aspect)) throw badRequest(`Parameter '${path}.aspect' is required and must be {"value": "<json>", "contentType": "application/json"}`);
  const contentType = aspect.contentType ?? 'application/json';
  if (contentType !== 'application/json') {
    throw badRequest(`Parameter '${path}.aspect.contentType' must be application/json, got ${String(contentType)}`);
  }
  let value: unknown = aspect.value;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw badRequest(`Parameter '${path}.aspect.value' is not valid JSON`);
    }
  } else if (!isObject(value)) {
    throw badRequest(`Parameter '${path}.aspect.value' must be the aspect serialized as a JSON string`);
  }
  const sm = raw.systemMetadata;
  if (sm !== undefined && sm !== null && !isObject(sm)) throw badRequest(`Parameter '${path}.systemMetadata' must be an object`);
  return { entityType, urn, changeType, aspectName, value, systemMetadata: (sm as Json | undefined) ?? null };
}
