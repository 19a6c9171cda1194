/**
 * DataHub's timeline vocabulary (metadata-service/services .../timeline/data/): a change event says what changed in
 * one category; a change transaction groups the events written at one instant, with the semantic version they bump.
 */

/** Every category DataHub's ChangeCategory names; `categories.ts` says which of them Almanac answers. */
export const CHANGE_CATEGORIES = [
  'DOCUMENTATION',
  'GLOSSARY_TERM',
  'OWNERSHIP',
  'TECHNICAL_SCHEMA',
  'TAG',
  'DOMAIN',
  'DEPRECATION',
  'LIFECYCLE',
  'RUN',
  'BUSINESS_ATTRIBUTE',
  'STRUCTURED_PROPERTY',
  'APPLICATION',
  'PARENT',
  'RELATED_ENTITIES',
  'ASSET_MEMBERSHIP',
] as const;
export type ChangeCategory = (typeof CHANGE_CATEGORIES)[number];

export type ChangeOperation = 'ADD' | 'MODIFY' | 'REMOVE';

/** In DataHub's order: a transaction's change is the highest of its events'. */
export const SEMANTIC_CHANGES = ['NONE', 'PATCH', 'MINOR', 'MAJOR'] as const;
export type SemanticChange = (typeof SEMANTIC_CHANGES)[number];

/** Serialized as DataHub's Jackson mapper does: absent fields are left out, never null. */
export interface ChangeEvent {
  readonly entityUrn: string;
  readonly category: ChangeCategory;
  readonly operation: ChangeOperation;
  readonly modifier?: string;
  readonly parameters?: Record<string, unknown>;
  readonly semVerChange: SemanticChange;
  readonly description: string;
}

export interface ChangeTransaction {
  readonly timestamp: number;
  readonly actor: string;
  semVer: string;
  semVerChange: SemanticChange;
  changeEvents: ChangeEvent[];
  rawDiff?: readonly JsonPatchOperation[];
  versionStamp: string;
}

export interface JsonPatchOperation {
  readonly op: 'add' | 'remove' | 'replace';
  readonly path: string;
  readonly value?: unknown;
}

/** Diffs two values of one aspect (undefined: the aspect did not exist yet) into the events of one category. */
export type ChangeDiffer = (before: Record<string, unknown> | undefined, after: Record<string, unknown>, entityUrn: string) => ChangeEvent[];

export const highestChange = (changes: readonly SemanticChange[]): SemanticChange =>
  changes.reduce<SemanticChange>((a, b) => (SEMANTIC_CHANGES.indexOf(b) > SEMANTIC_CHANGES.indexOf(a) ? b : a), 'NONE');

/** Urn.getId(): what follows `urn:li:<type>:`, which DataHub's descriptions name an owner, tag or term by. */
export const urnId = (urn: string): string => urn.split(':').slice(3).join(':');

/** Values stored opaquely may hold anything: a list that is not a list of objects counts as empty. */
export function objectList(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)) : [];
}

export const optionalString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
