import { badRequest } from './errors.ts';
import { jsonNestsDeeper, tooDeepMessage } from './json-depth.ts';
import { parseClientJson } from './untrusted-keys.ts';
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
  /** The MCP's headers: DataHub's conditional write headers (preconditions.ts) are read from them. */
  readonly headers?: Readonly<Record<string, string>>;
}

const CHANGE_TYPES = ['UPSERT', 'CREATE', 'UPDATE', 'DELETE', 'PATCH', 'RESTATE'];
/** Change types Almanac applies: the whole aspect, or a JSON Patch of it; DELETE is refused with a clear message. */
const SUPPORTED = new Set(['UPSERT', 'CREATE', 'UPDATE', 'RESTATE', 'PATCH']);
const PATCH_CONTENT_TYPES = ['application/json-patch+json', 'application/json'];

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
  if (!SUPPORTED.has(changeType)) {
    throw badRequest(`Parameter '${path}.changeType' ${changeType} is not supported; delete with POST /entities?action=delete`);
  }
  const aspectName = requiredString(raw, 'aspectName', path);
  const aspect = raw.aspect;
  if (!isObject(aspect))
    throw badRequest(`Parameter '${path}.aspect' is required and must be {"value": "<json>", "contentType": "application/json"}`);
  const contentType = aspect.contentType ?? 'application/json';
  const allowed = changeType === 'PATCH' ? PATCH_CONTENT_TYPES : ['application/json'];
  if (!allowed.includes(contentType as string)) {
    throw badRequest(`Parameter '${path}.aspect.contentType' must be ${allowed.join(' or ')}, got ${String(contentType)}`);
  }
  let value: unknown = aspect.value;
  if (typeof value === 'string') {
    if (jsonNestsDeeper(value)) throw badRequest(tooDeepMessage(`Parameter '${path}.aspect.value'`));
    value = parseClientJson(value, `${path}.aspect.value`, `Parameter '${path}.aspect.value' is not valid JSON`);
  } else if (!isObject(value) && !(changeType === 'PATCH' && Array.isArray(value))) {
    throw badRequest(`Parameter '${path}.aspect.value' must be the aspect serialized as a JSON string`);
  }
  const sm = parseSystemMetadata(raw.systemMetadata, path);
  const headers = parseHeaders(raw.headers, `${path}.headers`);
  return { entityType, urn, changeType, aspectName, value, systemMetadata: sm, ...(headers ? { headers } : {}) };
}

/** An MCP's `headers`: a map of strings (DataHub's conditional writes read If-Version-Match and the like from it). */
export function parseHeaders(raw: unknown, path: string): Readonly<Record<string, string>> | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw) || !Object.values(raw).every((v) => typeof v === 'string')) {
    throw badRequest(`Parameter '${path}' must be a map of strings`);
  }
  return raw as Record<string, string>;
}

/** An object, or (as `datahub put` sends it) that object serialized as a JSON string. */
function parseSystemMetadata(raw: unknown, path: string): Json | null {
  let sm = raw;
  if (typeof sm === 'string') {
    if (jsonNestsDeeper(sm)) throw badRequest(tooDeepMessage(`Parameter '${path}.systemMetadata'`));
    sm = parseClientJson(sm, `${path}.systemMetadata`, `Parameter '${path}.systemMetadata' is a string but not valid JSON`);
  }
  if (sm !== undefined && sm !== null && !isObject(sm)) throw badRequest(`Parameter '${path}.systemMetadata' must be an object`);
  return (sm as Json | undefined) ?? null;
}
