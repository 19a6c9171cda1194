import crypto from 'node:crypto';
import type { Catalog } from '../catalog.ts';
import { badRequest } from '../errors.ts';
import { checkBatchSize } from '../resource-refs.ts';
import { refuseInvalidAssignments } from '../structured-property-values.ts';
import { parseUrn } from '../urn.ts';
import type { Json, Parts } from '../../storage/store.ts';
import { auditStampOf, type AspectEdits } from './aspect-edits.ts';

const ASPECT = 'structuredProperties';
const UI_SOURCE: Json = { properties: { appSource: 'ui' } };

/** DataHub's PropertyValueInput. */
export interface PropertyValueInput {
  readonly stringValue?: string | null;
  readonly numberValue?: number | null;
}

export interface StructuredPropertyParams {
  readonly structuredPropertyUrn: string;
  readonly values: ReadonlyArray<PropertyValueInput | null>;
}

/** DataHub's CreateStructuredPropertyInput (settings aside). */
export interface CreateStructuredPropertyInput {
  readonly id?: string | null;
  readonly qualifiedName?: string | null;
  readonly displayName?: string | null;
  readonly description?: string | null;
  readonly immutable?: boolean | null;
  readonly valueType: string;
  readonly typeQualifier?: { readonly allowedTypes?: readonly string[] | null } | null;
  readonly allowedValues?: ReadonlyArray<PropertyValueInput & { readonly description?: string | null }> | null;
  readonly cardinality?: string | null;
  readonly entityTypes: readonly string[];
  readonly allowedPlatforms?: readonly string[] | null;
}

/** StructuredPropertyUtils.mapPropertyValueInput: a string, else a number. */
const primitive = (v: PropertyValueInput | null, at: string): Json => {
  if (v?.stringValue != null) return { string: v.stringValue };
  if (v?.numberValue != null) return { double: v.numberValue };
  throw badRequest(`${at} must have a stringValue or a numberValue`);
};

const objects = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]).filter((x) => typeof x === 'object' && x !== null) : []);

/**
 * DataHub's structured property mutations (CreateStructuredPropertyResolver, UpsertStructuredPropertiesResolver,
 * RemoveStructuredPropertiesResolver). Values are checked against the definitions before anything is written, as on
 * every ingest path; the assignments change on the entity's current structuredProperties with its row locked.
 */
export class StructuredPropertyEdits {
  constructor(
    private readonly ports: Pick<Parts, 'aspects'>,
    private readonly catalog: Catalog,
    private readonly edits: AspectEdits,
  ) {}

  /** createStructuredProperty: the new property's urn (its id, else its qualified name, else a random one). */
  async create(input: CreateStructuredPropertyInput, actor: string): Promise<string> {
    const id = input.id ?? input.qualifiedName ?? crypto.randomUUID();
    const urn = parseUrn(`urn:li:structuredProperty:${id}`).raw;
    if ((await this.ports.aspects.existing([urn])).has(urn)) throw badRequest('A structured property already exists with this urn');
    const stamp = auditStampOf(actor, this.edits.now());
    const definition: Json = {
      qualifiedName: id,
      valueType: input.valueType,
      entityTypes: [...input.entityTypes],
      ...(input.displayName != null ? { displayName: input.displayName } : {}),
      ...(input.description != null ? { description: input.description } : {}),
      ...(input.immutable != null ? { immutable: input.immutable } : {}),
      ...(input.typeQualifier?.allowedTypes != null ? { typeQualifier: { allowedTypes: [...input.typeQualifier.allowedTypes] } } : {}),
      ...(input.allowedValues != null
        ? {
            allowedValues: input.allowedValues.map((v, i) => ({
              value: primitive(v, `input.allowedValues[${i}]`),
              ...(v.description != null ? { description: v.description } : {}),
            })),
          }
        : {}),
      ...(input.cardinality != null ? { cardinality: input.cardinality } : {}),
      ...(input.allowedPlatforms != null ? { allowedPlatforms: [...input.allowedPlatforms] } : {}),
      created: stamp,
      lastModified: stamp,
    };
    await this.catalog.ingest(
      [
        {
          entityType: 'structuredProperty',
          urn,
          changeType: 'UPSERT',
          aspectName: 'propertyDefinition',
          value: definition,
          systemMetadata: UI_SOURCE,
        },
      ],
      actor,
    );
    return urn;
  }

  /** upsertStructuredProperties: each property's values replaced (or assigned); answers the stored value. */
  async upsert(assetUrn: string, params: readonly StructuredPropertyParams[], actor: string): Promise<Json> {
    checkBatchSize('upsertStructuredProperties', 'structuredPropertyInputParams', params.length);
    const asset = parseUrn(assetUrn).raw;
    const assigned = new Map(
      params.map((p, i) => [
        parseUrn(p.structuredPropertyUrn).raw,
        p.values.map((v, j) => primitive(v, `input.structuredPropertyInputParams[${i}].values[${j}]`)),
      ]),
    );
    await refuseInvalidAssignments(this.ports.aspects, asset, {
      properties: [...assigned].map(([propertyUrn, values]) => ({ propertyUrn, values })),
    });
    const stamp = auditStampOf(actor, this.edits.now());
    return this.change(asset, actor, (current) => {
      const kept = objects(current?.properties).map((a) => {
        const values = assigned.get(a.propertyUrn as string);
        if (values === undefined) return a;
        const { attribution: _dropped, ...rest } = a;
        return { ...rest, values, lastModified: stamp };
      });
      const listed = new Set(kept.map((a) => a.propertyUrn));
      const added = [...assigned]
        .filter(([u]) => !listed.has(u))
        .map(([propertyUrn, values]) => ({ propertyUrn, values, created: stamp, lastModified: stamp }));
      return { ...current, properties: [...kept, ...added] };
    });
  }

  /** removeStructuredProperties: the assignments of these properties dropped; answers the stored value. */
  async remove(assetUrn: string, propertyUrns: readonly string[], actor: string): Promise<Json> {
    checkBatchSize('removeStructuredProperties', 'structuredPropertyUrns', propertyUrns.length);
    const asset = parseUrn(assetUrn).raw;
    const gone = new Set(propertyUrns.map((u) => parseUrn(u).raw));
    return this.change(asset, actor, (current) => ({
      ...current,
      properties: objects(current?.properties).filter((a) => !gone.has(a.propertyUrn as string)),
    }));
  }

  /** The asset must exist, except a schema field, which DataHub creates on its first properties. */
  private async change(asset: string, actor: string, update: (current: Json | undefined) => Json): Promise<Json> {
    const entityType = parseUrn(asset).entityType;
    const missing = `Asset with provided urn ${asset} does not exist`;
    if (!(await this.ports.aspects.existing([asset])).has(asset)) {
      if (entityType !== 'schemaField') throw badRequest(missing);
      const value = update(undefined);
      await this.catalog.ingest([{ entityType, urn: asset, changeType: 'UPSERT', aspectName: ASPECT, value, systemMetadata: UI_SOURCE }], actor);
      return value;
    }
    let written: Json = {};
    await this.edits.apply(
      [
        {
          urn: asset,
          entityType,
          aspect: ASPECT,
          update: (current) => (written = update(current)),
        },
      ],
      actor,
      this.edits.now(),
      () => missing,
    );
    return written;
  }
}
