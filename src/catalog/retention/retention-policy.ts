import { z } from 'zod';
import { badRequest } from '../errors.ts';
import { DATAHUB_REGISTRY, findEntitySpec, type AspectKind } from '../registry/index.ts';
import type { RetentionPolicyRecord, VersionRule } from '../../storage/store.ts';

/** DataHub's wildcard: every entity type, or every aspect. */
export const ALL = '*';

const MAX_INT = 2 ** 31 - 1;

/**
 * A policy as DataHub writes one (its boot retention.yaml entries and its DataHubRetentionConfig aspect): entity,
 * aspect, and `config.retention` with `version.maxVersions` and/or `time.maxAgeInSeconds`.
 */
export interface RetentionPolicyInput {
  readonly entity: string;
  readonly aspect: string;
  readonly config: {
    readonly retention: {
      readonly version?: { readonly maxVersions: number };
      readonly time?: { readonly maxAgeInSeconds: number };
    };
  };
}

const positiveInt = z.number().int().min(1).max(MAX_INT);
const inputSchema = z
  .object({
    entity: z.string().min(1),
    aspect: z.string().min(1),
    config: z
      .object({
        retention: z
          .object({
            version: z.object({ maxVersions: positiveInt }).strict().optional(),
            time: z.object({ maxAgeInSeconds: positiveInt }).strict().optional(),
          })
          .strict(),
      })
      .strict(),
  })
  .strict();

const pathOf = (path: readonly PropertyKey[]) => path.map(String).join('.');

/** What kind of aspect a name is, across every entity that has it (an aspect's kind is the same everywhere). */
const aspectKind = (aspect: string): AspectKind | undefined => DATAHUB_REGISTRY.aspects[aspect]?.kind as AspectKind | undefined;

/**
 * Reads a policy as DataHub writes one; a bad one is a 400 naming the field. Timeseries aspects keep rows by age
 * only (`version` is refused for them); key aspects are never versioned, so no policy names one.
 */
export function parseRetentionPolicy(input: unknown): RetentionPolicyInput {
  const parsed = inputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : issue.path;
    throw badRequest(
      `Field '${pathOf(field) || 'policy'}': ${issue.code === 'unrecognized_keys' ? 'is not a field of a retention policy' : issue.message}`,
    );
  }
  const p = parsed.data;
  let entity = p.entity;
  if (entity !== ALL) {
    const spec = findEntitySpec(entity);
    if (!spec) throw badRequest(`Field 'entity': '${entity}' is not a known entity type (or ${ALL} for all of them)`);
    entity = spec.name;
  }
  const { version, time } = p.config.retention;
  if (!version && !time) throw badRequest(`Field 'config.retention': give version.maxVersions, time.maxAgeInSeconds or both`);
  if (p.aspect !== ALL) {
    const kind = aspectKind(p.aspect);
    const known = entity === ALL ? kind !== undefined : findEntitySpec(entity)!.aspects.includes(p.aspect);
    if (!known)
      throw badRequest(
        `Field 'aspect': '${p.aspect}' is not an aspect of ${entity === ALL ? 'any entity type' : entity} (or ${ALL} for all of them)`,
      );
    if (kind === 'key') throw badRequest(`Field 'aspect': ${p.aspect} is a key aspect, which has one version only`);
    if (kind === 'timeseries' && version) {
      throw badRequest(`Field 'config.retention.version': ${p.aspect} is a timeseries aspect; its rows are kept by age (config.retention.time) only`);
    }
  }
  return { entity, aspect: p.aspect, config: { retention: { ...(version ? { version } : {}), ...(time ? { time } : {}) } } };
}

/** The stored record of a policy. */
export const toPolicyRecord = (p: RetentionPolicyInput, source: 'api' | 'file', actor: string, now: number): RetentionPolicyRecord => ({
  entityType: p.entity,
  aspect: p.aspect,
  maxVersions: p.config.retention.version?.maxVersions ?? null,
  maxAgeSeconds: p.config.retention.time?.maxAgeInSeconds ?? null,
  source,
  updatedBy: actor,
  updatedAt: now,
});

/** A stored policy in DataHub's shape. */
export const toPolicyInput = (r: RetentionPolicyRecord): RetentionPolicyInput => ({
  entity: r.entityType,
  aspect: r.aspect,
  config: {
    retention: {
      ...(r.maxVersions !== null ? { version: { maxVersions: r.maxVersions } } : {}),
      ...(r.maxAgeSeconds !== null ? { time: { maxAgeInSeconds: r.maxAgeSeconds } } : {}),
    },
  },
});

/** DataHub's lookup order: (entity, aspect), (entity, *), (*, aspect), (*, *); the first policy found wins whole. */
export function governingPolicy(
  policies: ReadonlyMap<string, RetentionPolicyRecord>,
  entityType: string,
  aspect: string,
): RetentionPolicyRecord | undefined {
  return (
    policies.get(policyKey(entityType, aspect)) ??
    policies.get(policyKey(entityType, ALL)) ??
    policies.get(policyKey(ALL, aspect)) ??
    policies.get(policyKey(ALL, ALL))
  );
}

export const policyKey = (entityType: string, aspect: string): string => `${entityType}\u0000${aspect}`;

/** The versioned part of a policy, if it has one. */
export function versionRuleOf(p: RetentionPolicyRecord | undefined): VersionRule | undefined {
  if (!p || (p.maxVersions === null && p.maxAgeSeconds === null)) return undefined;
  return { maxVersions: p.maxVersions, maxAgeMillis: p.maxAgeSeconds === null ? null : p.maxAgeSeconds * 1000 };
}
