import { Buffer } from 'node:buffer';
import { badRequest } from './errors.ts';
import { FABRIC_TYPES } from './registry/common.ts';
import { findEntitySpec } from './registry/index.ts';

/**
 * DataHub urns: `urn:<namespace>:<entityType>:<key>`, where the key is one part
 * or a tuple `(<p1>,<p2>,…)`. The grammar and every message mirror DataHub's
 * `Urn`/`TupleKey` (li-utils), `DatasetUrn`/`DataPlatformUrn` and
 * `UrnValidationUtil`, because clients compare the 400 texts verbatim.
 */

// One list shared with the aspect schemas, so the two can never drift apart.
export { FABRIC_TYPES };

export interface Urn {
  readonly raw: string;
  readonly namespace: string;
  readonly entityType: string;
  readonly key: string;
  /** Tuple parts split on commas at paren depth 1, or `[key]` for a non-tuple key. */
  readonly parts: readonly string[];
}

export interface DatasetKey {
  /** Full platform urn, e.g. `urn:li:dataPlatform:hive`. */
  platform: string;
  platformName: string;
  name: string;
  origin: string;
}

/**
 * Java's URISyntaxException, kept internal: callers only see `reason`, but a bad
 * dataset platform nests the full `getMessage()` text ("<reason>[ at index N]: <input>").
 */
class UriSyntax extends Error {
  constructor(
    readonly reason: string,
    readonly input: string,
    readonly index = -1,
  ) {
    super(reason);
  }
  get javaMessage(): string {
    return `${this.reason}${this.index > -1 ? ` at index ${this.index}` : ''}: ${this.input}`;
  }
}

const LOWER = /^[a-z]$/;
const NAMESPACE_CHARS = /^[a-z0-9-]*$/;
const WORD_CHARS = /^\w*$/; // Java's \w: [a-zA-Z_0-9], ASCII only

// Module-level helpers rather than closures made per call: urns are parsed on every request.
const syntaxError = (raw: string, reason: string, index?: number) => new UriSyntax(`${reason} Urn: ${raw}`, raw, index);

/** `new Urn(String)`: the checks run in DataHub's order, so the first failure wins the same way. */
function parse(raw: string): Urn {
  if (!raw.startsWith('urn:')) throw syntaxError(raw, "Urn doesn't start with 'urn:'.", 0);
  if (!LOWER.test(raw.charAt(4))) throw syntaxError(raw, 'First char of Urn namespace must be [a-z]!', 4);
  const second = raw.indexOf(':', 5);
  if (second === -1) throw syntaxError(raw, "Missing second ':' char.");
  if (second - 4 > 32) throw syntaxError(raw, 'Namespace length > 32 chars.', second);
  const namespace = raw.slice(4, second);
  if (!NAMESPACE_CHARS.test(namespace)) throw syntaxError(raw, 'Chars in namespace must be [a-z0-9-]!.');
  if (!LOWER.test(raw.charAt(second + 1))) throw syntaxError(raw, 'First char of entityType must be [a-z]!', second + 1);

  const third = raw.indexOf(':', second + 2);
  if (third === -1) {
    // DataHub accepts `urn:li:foo` as a key-less urn, but no entity can be stored
    // without a key, so reject it with DataHub's own text for an empty key. The
    // entityType check (and its slightly different message) still comes first.
    if (!WORD_CHARS.test(raw.slice(second + 1))) throw syntaxError(raw, 'entityType must have only [a-zA-Z0-9] chars.');
    throw syntaxError(raw, 'Urns with empty entityKey are not allowed.');
  }
  const entityType = raw.slice(second + 1, third);
  if (!WORD_CHARS.test(entityType)) throw syntaxError(raw, 'entityType must have only [a-zA-Z_0-9] chars.');
  if (third + 1 >= raw.length) throw syntaxError(raw, 'Urns with empty entityKey are not allowed.');

  const parts = Object.freeze(parseKeyParts(raw, third + 1));
  return Object.freeze({ raw, namespace, entityType, key: raw.slice(third + 1), parts });
}

/** `TupleKey.fromString`, including its quirks (e.g. `(a,b)c` yields `["a", "b)c"]`). */
function parseKeyParts(raw: string, start: number): string[] {
  const tuple = raw[start] === '(';
  const parts: string[] = [];
  let depth = 0;
  let partStart = start + 1;
  for (let i = start; i < raw.length; i++) {
    const c = raw[i];
    if (c === '(') {
      depth++;
    } else if (c === ')') {
      if (--depth < 0) throw new UriSyntax('mismatched paren nesting', raw);
    } else if (c === ',' && tuple && depth === 1) {
      // Commas split parts only at depth 1: nested urns keep theirs.
      if (i === partStart) throw new UriSyntax('empty part disallowed', raw);
      parts.push(raw.slice(partStart, i));
      partStart = i + 1;
    }
  }
  if (depth !== 0) throw new UriSyntax('mismatched paren nesting', raw);
  if (!tuple) return [raw.slice(start)];
  const end = raw.endsWith(')') ? raw.length - 1 : raw.length;
  if (end <= partStart) throw new UriSyntax('empty part disallowed', raw);
  parts.push(raw.slice(partStart, end));
  return parts;
}

/**
 * Urns parsed lately: every request names a few, and the same ones come back
 * (tokens' actors, hot datasets). Only urns of a storable length are kept, so
 * the cache stays a few megabytes whatever clients send.
 */
const recentlyParsed = new Map<string, Urn>();
const MAX_RECENTLY_PARSED = 10_000;
const MAX_CACHED_URN_CHARS = 512;

export function parseUrn(raw: string): Urn {
  const hit = recentlyParsed.get(raw);
  if (hit) return hit;
  try {
    const urn = parse(raw);
    if (raw.length <= MAX_CACHED_URN_CHARS) {
      if (recentlyParsed.size >= MAX_RECENTLY_PARSED) recentlyParsed.delete(recentlyParsed.keys().next().value as string);
      recentlyParsed.set(raw, urn);
    }
    return urn;
  } catch (e) {
    throw e instanceof UriSyntax ? badRequest(e.reason) : e;
  }
}

/** `DatasetUrn.createFromUrn`; throws UriSyntax so ingest can wrap the reason. */
function datasetKey(urn: Urn): DatasetKey {
  if (urn.namespace !== 'li') throw new UriSyntax("Urn namespace type should be 'li'.", urn.raw);
  if (urn.entityType !== 'dataset') throw new UriSyntax("Urn entity type should be 'dataset'.", urn.raw);
  if (urn.parts.length !== 3) throw new UriSyntax('Invalid number of keys.', urn.raw);
  const [platformPart, name, origin] = urn.parts as [string, string, string];
  // Java evaluates the platform before the fabric, so a bad platform wins.
  const platformName = dataPlatformName(platformPart, urn.raw);
  if (!(FABRIC_TYPES as readonly string[]).includes(origin)) {
    throw new UriSyntax(`Invalid URN Parameter: 'No enum constant com.linkedin.common.FabricType.${origin}`, urn.raw);
  }
  // DatasetUrn trims the name (sanitizeName); platform is rebuilt canonically.
  return { platform: `urn:li:dataPlatform:${platformName}`, platformName, name: name.trim(), origin };
}

const platformSyntaxError = (e: UriSyntax, datasetUrn: string) =>
  new UriSyntax(`Invalid URN Parameter: 'Invalid URN syntax: ${e.javaMessage}`, datasetUrn);

/** Part 1 is coerced via DataPlatformUrn, whose coercer prefixes "Invalid URN syntax: ". */
function dataPlatformName(part: string, datasetUrn: string): string {
  let urn: Urn;
  try {
    urn = parse(part);
  } catch (e) {
    throw e instanceof UriSyntax ? platformSyntaxError(e, datasetUrn) : e;
  }
  if (urn.namespace !== 'li') throw platformSyntaxError(new UriSyntax("Urn namespace type should be 'li'.", part), datasetUrn);
  if (urn.entityType !== 'dataPlatform') {
    throw platformSyntaxError(new UriSyntax("Urn entity type should be 'dataPlatform'.", part), datasetUrn);
  }
  if (urn.parts.length !== 1) throw platformSyntaxError(new UriSyntax('Invalid number of keys.', part), datasetUrn);
  return urn.parts[0] as string;
}

export function parseDatasetUrn(urnOrRaw: Urn | string): DatasetKey {
  const urn = typeof urnOrRaw === 'string' ? parseUrn(urnOrRaw) : urnOrRaw;
  try {
    return datasetKey(urn);
  } catch (e) {
    throw e instanceof UriSyntax ? badRequest(e.reason) : e;
  }
}

const URN_NUM_BYTES_LIMIT = 512;
/**
 * DataHub exempts schemaField urns from the 512-byte rule, but its SQL store keeps
 * no urn longer than 500 characters (metadata_aspect_v2.urn is varchar(500)).
 * Almanac bounds them in bytes, so that an edge between two of them, with its
 * owner and via urns, still fits one PostgreSQL index entry (2,704 bytes at most).
 */
export const MAX_SCHEMA_FIELD_URN_BYTES = 600;

/** Whether a urn is longer than any urn Almanac stores (a referenced one past it is not indexed). */
export const urnTooLong = (urn: string): boolean =>
  urn.length > MAX_SCHEMA_FIELD_URN_BYTES || Buffer.byteLength(urn, 'utf8') > MAX_SCHEMA_FIELD_URN_BYTES;
const DELIMITER_SEPARATOR = '\u241F'; // ␟, reserved by BrowsePathsV2

/**
 * Length of Java's `URLEncoder.encode(s)` (UTF-8): `[A-Za-z0-9.*_-]` stay as is,
 * space becomes `+`, every other byte becomes `%XX`. Unlike encodeURIComponent it
 * escapes `(`, `)`, `!`, `'` and `~`, which matters for tuple urns near the limit.
 */
function urlEncodedLength(s: string): number {
  let n = 0;
  for (const b of Buffer.from(s, 'utf8')) n += /[A-Za-z0-9.*_ -]/.test(String.fromCharCode(b)) ? 1 : 3;
  return n;
}

/** Java's String.trim() strips chars <= U+0020 only (not NBSP or other Unicode spaces). */
const hasOuterWhitespace = (s: string) => s.length > 0 && (s.charCodeAt(0) <= 0x20 || s.charCodeAt(s.length - 1) <= 0x20);

/**
 * The urn checks DataHub runs on ingest: the grammar (Rest.li coerces the urn
 * first), then `UrnValidationUtil.validateUrn`, whose key-aspect check precedes
 * the whitespace, length and ␟ checks. Strict-mode-only checks are not applied.
 */
export function validateUrnForIngest(raw: string): Urn {
  const urn = parseUrn(raw);
  if (urn.entityType === 'dataset') {
    try {
      datasetKey(urn);
    } catch (e) {
      throw e instanceof UriSyntax ? badRequest(`Invalid urn: ${raw}\n Cause: ${e.reason}`) : e;
    }
  }
  // DataHub binds urn parts to key fields by position (EntityKeyUtils.convertUrnToEntityKey) and rejects a
  // count mismatch, so even single-field keys reject a multi-part tuple such as `(a,b)`.
  const expected = findEntitySpec(urn.entityType)?.keyFields.length;
  if (expected !== undefined && urn.parts.length !== expected) {
    throw badRequest(`Failed to convert urn to entity key: urns parts and key fields do not have same length for ${raw}`);
  }
  if (hasOuterWhitespace(raw)) throw badRequest('Error: cannot provide an URN with leading or trailing whitespace');
  // schemaField urns embed a whole dataset urn plus a field path, so DataHub exempts them.
  if (urn.entityType !== 'schemaField' && urlEncodedLength(raw) > URN_NUM_BYTES_LIMIT) {
    throw badRequest(`Error: cannot provide an URN longer than ${URN_NUM_BYTES_LIMIT} bytes (when URL encoded)`);
  }
  if (urn.entityType === 'schemaField' && urnTooLong(raw)) {
    throw badRequest(`Error: cannot provide a schemaField URN longer than ${MAX_SCHEMA_FIELD_URN_BYTES} bytes (UTF-8)`);
  }
  if (raw.includes(DELIMITER_SEPARATOR)) throw badRequest(`Error: URN cannot contain ${DELIMITER_SEPARATOR} character`);
  return urn;
}

/** Like the Python SDK's make_dataset_urn, accepts a bare platform name or a full platform urn. */
export function makeDatasetUrn(platformName: string, name: string, origin = 'PROD'): string {
  const platform = platformName.startsWith('urn:li:dataPlatform:') ? platformName : `urn:li:dataPlatform:${platformName}`;
  return `urn:li:dataset:(${platform},${name},${origin})`;
}

/**
 * DataHub's SchemaFieldUtils: `(`, `)` and `,` in the field path are
 * percent-encoded, so the urn stays a two-part tuple whatever the path holds.
 */
export function schemaFieldUrn(datasetUrn: string, fieldPath: string): string {
  const encoded = fieldPath.replaceAll('(', '%28').replaceAll(')', '%29').replaceAll(',', '%2C');
  return `urn:li:schemaField:(${datasetUrn},${encoded})`;
}
