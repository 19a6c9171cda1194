import { asList, asString, type AspectValue } from './aspects.ts';
import type { FieldEdits } from './components/schema-table.tsx';
import { ownershipTypeUrn } from './curation.ts';
import type { EntityRefView } from './entity-ref.ts';

type Aspects = Readonly<Record<string, AspectValue>>;

const tagUrns = (v: unknown): string[] => asList((v as AspectValue | undefined)?.tags).flatMap((t) => asString(t.tag) ?? []);
const termUrns = (v: unknown): string[] => asList((v as AspectValue | undefined)?.terms).flatMap((t) => asString(t.urn) ?? []);

/** The tags, terms, owners and domains an entity's aspects name (what a page resolves to names in one go). */
export function referencedUrns(aspects: Aspects): string[] {
  const fields = asList(aspects.editableSchemaMetadata?.editableSchemaFieldInfo);
  return [
    ...tagUrns(aspects.globalTags),
    ...termUrns(aspects.glossaryTerms),
    ...asList(aspects.ownership?.owners).flatMap((o) => asString(o.owner) ?? []),
    ...(Array.isArray(aspects.domains?.domains) ? (aspects.domains.domains as unknown[]).flatMap((d) => asString(d) ?? []) : []),
    ...fields.flatMap((f) => [...tagUrns(f.globalTags), ...termUrns(f.glossaryTerms)]),
  ];
}

const named = (urns: readonly string[], names: ReadonlyMap<string, EntityRefView>): EntityRefView[] =>
  urns.map((u) => names.get(u) ?? { urn: u, type: '' });

/** Each field's description, tags and terms as people edited them (editableSchemaMetadata), by field path. */
export function fieldEdits(aspects: Aspects, names: ReadonlyMap<string, EntityRefView>): Map<string, FieldEdits> {
  return new Map(
    asList(aspects.editableSchemaMetadata?.editableSchemaFieldInfo).map((f) => [
      asString(f.fieldPath) ?? '',
      { description: asString(f.description), tags: named(tagUrns(f.globalTags), names), terms: named(termUrns(f.glossaryTerms), names) },
    ]),
  );
}

/** The entity's tags, terms, owners (with their ownership types) and domain, named. */
export function annotationsOf(aspects: Aspects, names: ReadonlyMap<string, EntityRefView>) {
  const domain = Array.isArray(aspects.domains?.domains) ? asString((aspects.domains.domains as unknown[])[0]) : null;
  return {
    tags: named(tagUrns(aspects.globalTags), names),
    terms: named(termUrns(aspects.glossaryTerms), names),
    owners: asList(aspects.ownership?.owners).flatMap((o) => {
      const urn = asString(o.owner);
      return urn ? [{ owner: names.get(urn) ?? { urn, type: '' }, typeUrn: ownershipTypeUrn(asString(o.typeUrn), asString(o.type)) }] : [];
    }),
    domain: domain ? (names.get(domain) ?? { urn: domain, type: 'DOMAIN' }) : null,
  };
}

/** The description people wrote (editable...Properties) if any, else the one ingested (...Properties, ...Info). */
export function descriptionOf(aspects: Aspects): string | null {
  for (const [name, value] of Object.entries(aspects))
    if (name.startsWith('editable') && name.endsWith('Properties') && asString(value.description)) return asString(value.description);
  for (const [name, value] of Object.entries(aspects)) {
    // A glossary term's is its definition.
    if (/(Properties|Info)$/.test(name) && (asString(value.description) || asString(value.definition)))
      return asString(value.description) || asString(value.definition);
  }
  return null;
}
