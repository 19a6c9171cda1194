import { z } from 'zod';
import { urn } from './common.ts';
import type { KeyField } from './datahub-registry.ts';

/**
 * The schema of a key aspect (`metadata/key/*Key.pdl`), built from its fields as
 * the generated registry lists them, in urn tuple order: `keyAspectValue` in
 * index.ts binds urn parts to them by position, as DataHub's EntityKeyUtils does.
 * Every key field of the pinned release is text (a string, an urn or an enum);
 * the generator refuses any other type, so none needs converting from urn text.
 */
export function keyAspectSchema(fields: readonly KeyField[]): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const field of fields) {
    const type = field.type === 'enum' ? z.enum(field.symbols as [string, ...string[]]) : field.type === 'urn' ? urn() : z.string();
    // e.g. ContainerKey.guid is optional in the PDL, although it is the urn's only part.
    shape[field.name] = field.optional ? type.optional() : type;
  }
  return z.looseObject(shape);
}
