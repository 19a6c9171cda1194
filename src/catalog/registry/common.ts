import { z } from 'zod';
import { DATAHUB_REGISTRY } from './datahub-registry.ts';

/**
 * Building blocks shared by the aspect schemas. Every record is loose
 * (`z.looseObject`) because newer DataHub clients send fields this catalog does
 * not model yet, and DataHub itself round-trips them; rejecting them would break
 * forward compatibility.
 */

/** Pegasus `long`: JSON numbers that must be integers. */
export const long = () => z.number().int();
/** Pegasus `int`. */
export const int = () => z.number().int();
/** Pegasus `float`/`double`. */
export const float = () => z.number();

/**
 * Pegasus `Urn` typeref. Only the outer shape (`urn:<ns>:<type>:<key>`) is
 * checked here; full grammar checks belong to the urn parser and run on
 * entity urns, not on every urn-valued field.
 */
export const urn = () => z.string().regex(/^urn:[^:]+:[^:]+:./s, { message: 'expected an urn (urn:<namespace>:<entityType>:<key>)' });

/** Pegasus `map[string, string]`. */
export const stringMap = () => z.record(z.string(), z.string());

/**
 * A Pegasus union is serialized as an object with exactly one key: the member's
 * fully qualified name (e.g. `{"com.linkedin.schema.StringType": {}}`).
 * Members are not modelled individually; only the envelope shape is enforced.
 */
export const pegasusUnion = () =>
  z.record(z.string(), z.unknown()).refine((v) => Object.keys(v).length === 1, {
    message: 'expected a union object with exactly one member key',
  });

/**
 * `common/FabricType.pdl` at the pinned DataHub release, in its order: the
 * symbols of datasetKey's `origin` in the generated registry.
 */
export const FABRIC_TYPES: readonly string[] = Object.freeze(
  [...DATAHUB_REGISTRY.entities['dataset']!.keyFields].flatMap((f) => (f.name === 'origin' && f.type === 'enum' ? f.symbols : [])),
);

/** `common/AuditStamp.pdl`. */
export const auditStamp = () => z.looseObject({ time: long(), actor: urn(), impersonator: urn().optional(), message: z.string().optional() });

/** `common/TimeStamp.pdl`: unlike AuditStamp the actor is optional. */
export const timeStamp = () => z.looseObject({ time: long(), actor: urn().optional() });

/**
 * `common/ChangeAuditStamps.pdl`. `created` and `lastModified` have Pegasus
 * defaults, so they may be omitted on the wire.
 */
export const changeAuditStamps = () =>
  z.looseObject({
    created: auditStamp().optional(),
    lastModified: auditStamp().optional(),
    deleted: auditStamp().optional(),
  });

/** `common/TagAssociation.pdl`, used by globalTags and by schema fields. */
export const globalTagsSchema = z.looseObject({
  tags: z.array(z.looseObject({ tag: urn(), context: z.string().optional() })),
});

/** `common/GlossaryTerms.pdl`. */
export const glossaryTermsSchema = z.looseObject({
  terms: z.array(z.looseObject({ urn: urn(), context: z.string().optional(), actor: urn().optional() })),
  auditStamp: auditStamp(),
});
