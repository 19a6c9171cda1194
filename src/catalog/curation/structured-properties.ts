import crypto from 'node:crypto';
import type { Catalog } from '../catalog.ts';
import { badRequest } from '../errors.ts';
import { checkBatchSize } from '../resource-refs.ts';
import { refuseInvalidAssignments } from '../structured-property-values.ts';
import { parseUrn } from '../urn.ts';
import type { Json, Parts } from '../../storage/store.ts';
import { auditStampOf, type AspectEdits } from './aspect-edits.ts';
import { settingsWith, type StructuredPropertySettingsInput } from './structured-property-settings.ts';

const ASPECT = 'structuredProperties';
const SETTINGS = 'structuredPropertySettings';
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

/** DataHub's CreateStructuredPropertyInput. */
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
  readonly settings?: StructuredPropertySettingsInput | null;
}

/** DataHub's UpdateStructuredPropertyInput: every list is appended to, never replaced. */
export interface UpdateStructuredPropertyInput {
  readonly urn: string;
  readonly displayName?: string | null;
  readonly description?: string | null;
  readonly immutable?: boolean | null;
  readonly typeQualifier?: { readonly newAllowedTypes?: readonly string[] | null } | null;
  readonly newAllowedValues?: ReadonlyArray<PropertyValueInput & { readonly description?: string | null }> | null;
  readonly setCardinalityAsMultiple?: boolean | null;
  readonly newEntityTypes?: readonly string[] | null;
  readonly newAllowedPlatforms?: readonly string[] | null;
  readonly settings?: StructuredPropertySettingsInput | null;
}

/** StructuredPropertyUtils.mapPropertyValueInput: a string, else a number. */
const primitive = (v: PropertyValueInput | null, at: string): Json => {
  if (v?.stringValue != null) return { string: v.stringValue };
  if (v?.numberValue != null) return { double: v.numberValue };
  throw badRequest(`${at} must have a stringValue or a numberValue`);
};

/** The allowed values as PropertyValues, each checked (the field named on a bad one). */
const allowedValuesOf = (values: ReadonlyArray<PropertyValueInput & { readonly description?: string | null }>, field: string): Json[] =>
  values.map((v, i) => ({
    value: primitive(v, `${field}[${i}]`),
    ...(v.description != null ? { description: v.description } : {}),
  }));

/** A list with the new entries appended, each once (DataHub's patch builder adds to the array). */
const appended = (current: unknown, added: readonly Json[]): Json[] => {
  const out = Array.isArray(current) ? [...(current as Json[])] : [];
  for (const a of added) if (!out.some((x) => JSON.stringify(x) === JSON.stringify(a))) out.push(a);
  return out;
};

const objectsOrStrings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

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
      ...(input.allowedValues != null ? { allowedValues: allowedValuesOf(input.allowedValues, 'input.allowedValues') } : {}),
      ...(input.cardinality != null ? { cardinality: input.cardinality } : {}),
      ...(input.allowedPlatforms != null ? { allowedPlatforms: [...input.allowedPlatforms] } : {}),
      created: stamp,
      lastModified: stamp,
    };
    const settings = input.settings != null ? settingsWith(undefined, input.settings, stamp) : undefined;
    return this.write(urn, actor, { propertyDefinition: definition, structuredPropertySettings: settings });
  }

  /**
   * updateStructuredProperty (UpdateStructuredPropertyResolver): the display name, description and immutability
   * replaced when given; allowed types, allowed values, entity types and platforms appended to; the cardinality only
   * ever raised to MULTIPLE. Written through ingest, so the definition checks every write gets (no change to a
   * soft-deleted property) apply. Answers the property's urn.
   */
  async update(input: UpdateStructuredPropertyInput, actor: string): Promise<string> {
    const urn = parseUrn(input.urn).raw;
    const current = (await this.ports.aspects.getAspect(urn, 'propertyDefinition'))?.value;
    if (!current) throw badRequest('Attempting to update a structured property with no definition aspect.');
    const allowedValues = input.newAllowedValues != null ? allowedValuesOf(input.newAllowedValues, 'input.newAllowedValues') : undefined;
    const changed =
      input.displayName != null ||
      input.description != null ||
      input.immutable != null ||
      input.typeQualifier != null ||
      allowedValues !== undefined ||
      input.setCardinalityAsMultiple === true ||
      input.newEntityTypes != null ||
      input.newAllowedPlatforms != null;
    const stamp = auditStampOf(actor, this.edits.now());
    const settings =
      input.settings != null ? settingsWith((await this.ports.aspects.getAspect(urn, SETTINGS))?.value, input.settings, stamp) : undefined;
    if (!changed) return this.write(urn, actor, { structuredPropertySettings: settings });
    const newTypes = input.typeQualifier?.newAllowedTypes;
    const qualifier = (current.typeQualifier as Json | undefined) ?? {};
    const definition: Json = {
      ...current,
      ...(input.displayName != null ? { displayName: input.displayName } : {}),
      ...(input.description != null ? { description: input.description } : {}),
      ...(input.immutable != null ? { immutable: input.immutable } : {}),
      ...(newTypes != null
        ? { typeQualifier: { ...qualifier, allowedTypes: [...(Array.isArray(qualifier.allowedTypes) ? qualifier.allowedTypes : []), ...newTypes] } }
        : {}),
      ...(allowedValues !== undefined ? { allowedValues: appended(current.allowedValues, allowedValues) } : {}),
      ...(input.setCardinalityAsMultiple === true ? { cardinality: 'MULTIPLE' } : {}),
      ...(input.newEntityTypes != null ? { entityTypes: [...new Set([...objectsOrStrings(current.entityTypes), ...input.newEntityTypes])] } : {}),
      ...(input.newAllowedPlatforms != null
        ? { allowedPlatforms: [...new Set([...objectsOrStrings(current.allowedPlatforms), ...input.newAllowedPlatforms])] }
        : {}),
      lastModified: stamp,
    };
    return this.write(urn, actor, { propertyDefinition: definition, structuredPropertySettings: settings });
  }

  /**
   * deleteStructuredProperty: the property deleted, then every assignment of it on other entities (DataHub clears
   * the references after answering; here before, so a read right after sees none).
   */
  async delete(propertyUrn: string): Promise<void> {
    const urn = parseUrn(propertyUrn).raw;
    if (parseUrn(urn).entityType !== 'structuredProperty') throw badRequest(`input.urn must be a structured property urn, got ${urn}`);
    await this.catalog.delete({ urn });
    await this.catalog.deleteReferences(urn, false);
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

  /** Stores a definition and its settings (those given) in one ingest, so every definition check applies; answers the urn. */
  private async write(urn: string, actor: string, aspects: Readonly<Partial<Record<'propertyDefinition' | typeof SETTINGS, Json>>>): Promise<string> {
    const proposals = Object.entries(aspects).flatMap(([aspectName, value]) =>
      value === undefined ? [] : [{ entityType: 'structuredProperty', urn, changeType: 'UPSERT', aspectName, value, systemMetadata: UI_SOURCE }],
    );
    if (proposals.length > 0) await this.catalog.ingest(proposals, actor);
    return urn;
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
