import { badRequest } from '../errors.ts';
import { findAspectSpec } from '../registry/index.ts';
import type { ChangeCategory, ChangeDiffer } from './change-event.ts';
import { CHANGE_CATEGORIES } from './change-event.ts';
import { deprecationChanges } from './deprecation-changes.ts';
import { descriptionChanges } from './documentation-changes.ts';
import { domainChanges } from './domain-changes.ts';
import { applicationChanges } from './application-changes.ts';
import { structuredPropertyChanges } from './structured-property-changes.ts';
import { dataProductAssetChanges, dataProductPropertiesChanges, domainPropertiesChanges, glossaryTermInfoChanges } from './property-changes.ts';
import { glossaryTermChanges, tagChanges } from './association-changes.ts';
import { fieldDocumentationChanges, fieldGlossaryTermChanges, fieldTagChanges } from './field-changes.ts';
import { ownershipChanges } from './ownership-changes.ts';
import { schemaChanges } from './schema-changes.ts';

/** Which aspect's versions answer a category, and how two of its values differ. */
export interface AspectDiffer {
  readonly aspect: string;
  readonly category: ChangeCategory;
  readonly diff: ChangeDiffer;
}

/**
 * The categories Almanac answers, each from the entity-level aspects DataHub's TimelineServiceImpl reads for it
 * (DEPRECATION is Almanac's addition). Field-level tags, terms and descriptions are diffed as people edit them
 * (editableSchemaMetadata, field-changes.ts); those ingested inside schemaMetadata, and institutionalMemory, are not.
 */
const ANSWERED: ReadonlyMap<ChangeCategory, readonly AspectDiffer[]> = new Map<ChangeCategory, AspectDiffer[]>([
  ['TECHNICAL_SCHEMA', [{ aspect: 'schemaMetadata', category: 'TECHNICAL_SCHEMA', diff: schemaChanges }]],
  ['OWNERSHIP', [{ aspect: 'ownership', category: 'OWNERSHIP', diff: ownershipChanges }]],
  [
    'TAG',
    [
      { aspect: 'globalTags', category: 'TAG', diff: tagChanges },
      { aspect: 'editableSchemaMetadata', category: 'TAG', diff: fieldTagChanges },
    ],
  ],
  [
    'GLOSSARY_TERM',
    [
      { aspect: 'glossaryTerms', category: 'GLOSSARY_TERM', diff: glossaryTermChanges },
      { aspect: 'editableSchemaMetadata', category: 'GLOSSARY_TERM', diff: fieldGlossaryTermChanges },
    ],
  ],
  [
    'DOCUMENTATION',
    [
      { aspect: 'editableDatasetProperties', category: 'DOCUMENTATION', diff: descriptionChanges },
      { aspect: 'datasetProperties', category: 'DOCUMENTATION', diff: descriptionChanges },
      { aspect: 'glossaryTermInfo', category: 'DOCUMENTATION', diff: glossaryTermInfoChanges },
      { aspect: 'domainProperties', category: 'DOCUMENTATION', diff: domainPropertiesChanges },
      { aspect: 'dataProductProperties', category: 'DOCUMENTATION', diff: dataProductPropertiesChanges },
      { aspect: 'editableSchemaMetadata', category: 'DOCUMENTATION', diff: fieldDocumentationChanges },
    ],
  ],
  ['DOMAIN', [{ aspect: 'domains', category: 'DOMAIN', diff: domainChanges }]],
  ['APPLICATION', [{ aspect: 'applications', category: 'APPLICATION', diff: applicationChanges }]],
  ['STRUCTURED_PROPERTY', [{ aspect: 'structuredProperties', category: 'STRUCTURED_PROPERTY', diff: structuredPropertyChanges }]],
  ['ASSET_MEMBERSHIP', [{ aspect: 'dataProductProperties', category: 'ASSET_MEMBERSHIP', diff: dataProductAssetChanges }]],
  ['DEPRECATION', [{ aspect: 'deprecation', category: 'DEPRECATION', diff: deprecationChanges }]],
]);

export const ANSWERED_CATEGORIES: readonly ChangeCategory[] = [...ANSWERED.keys()];

/** The two-word names DataHub also accepts with any separator ("technical-schema", "glossary term"). */
const COMPOUND: readonly ChangeCategory[] = ['GLOSSARY_TERM', 'TECHNICAL_SCHEMA', 'STRUCTURED_PROPERTY', 'ASSET_MEMBERSHIP'];

/** DataHub's spellings: any case, OWNER for OWNERSHIP, and the compound names' separators. */
function parseCategory(raw: string): ChangeCategory | undefined {
  const upper = raw.trim().toUpperCase();
  if (upper === 'OWNER') return 'OWNERSHIP';
  const compound = COMPOUND.find((c) => c.split('_').every((word) => upper.includes(word)));
  return compound ?? CHANGE_CATEGORIES.find((c) => c === upper);
}

/**
 * The categories asked for, from repeated parameters and comma-separated lists (the CLI joins them with commas).
 * Names DataHub does not know and categories Almanac does not answer are refused, each kind named.
 */
export function parseCategories(values: readonly string[]): ChangeCategory[] {
  const names = values.flatMap((v) => v.split(',')).filter((v) => v.trim() !== '');
  if (names.length === 0) throw badRequest("Parameter 'categories' is required");
  const unknown = names.filter((n) => parseCategory(n) === undefined);
  if (unknown.length > 0) {
    throw badRequest(`Unknown categories: ${unknown.join(', ')}; 'categories' takes ${CHANGE_CATEGORIES.join(', ')}`);
  }
  const categories = [...new Set(names.map((n) => parseCategory(n)!))];
  const unanswered = categories.filter((c) => !ANSWERED.has(c));
  if (unanswered.length > 0) {
    throw badRequest(`Categories not answered by this server: ${unanswered.join(', ')}; it answers ${ANSWERED_CATEGORIES.join(', ')}`);
  }
  return categories;
}

/** The aspects to read for these categories that the entity type has, each with its differs, in a fixed order. */
export function differsFor(entityType: string, categories: readonly ChangeCategory[]): Map<string, AspectDiffer[]> {
  const out = new Map<string, AspectDiffer[]>();
  for (const category of ANSWERED_CATEGORIES) {
    if (!categories.includes(category)) continue;
    for (const d of ANSWERED.get(category)!) {
      if (!findAspectSpec(entityType, d.aspect)) continue;
      out.set(d.aspect, [...(out.get(d.aspect) ?? []), d]);
    }
  }
  return out;
}
