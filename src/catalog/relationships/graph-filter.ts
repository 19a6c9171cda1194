import { badRequest } from '../errors.ts';
import type { RelationshipField, RelationshipMatch } from '../../storage/store.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads one of DataHub's OpenAPI v3 filters, `{"and": [{"criteria": [{field, values, condition}]}]}` (an OR of
 * ANDs, despite its key), as one clause of a relationship scan. `fields` maps the field names the filter may use
 * to relationship fields; DataHub's graph filters take EQUAL only, and so does this.
 * Returns undefined for an absent filter.
 */
export function graphFilterClause(
  filter: unknown,
  name: string,
  fields: Readonly<Record<string, RelationshipField>>,
): RelationshipMatch[] | undefined {
  if (filter === undefined || filter === null) return undefined;
  if (!isObject(filter)) throw badRequest(`'${name}' must be an object {"and": [{"criteria": [...]}]}`);
  const unknown = Object.keys(filter).find((k) => k !== 'and');
  if (unknown !== undefined) throw badRequest(`'${name}' has an unknown field '${unknown}'; it takes 'and'`);
  if (filter.and === undefined || filter.and === null) return undefined;
  if (!Array.isArray(filter.and)) throw badRequest(`'${name}.and' must be an array`);
  return filter.and.map((conjunction: unknown, i: number) => {
    const at = `${name}.and[${i}]`;
    if (!isObject(conjunction) || (conjunction.criteria !== undefined && !Array.isArray(conjunction.criteria))) {
      throw badRequest(`'${at}' must be {"criteria": [...]}`);
    }
    const match: Partial<Record<RelationshipField, string[]>> = {};
    ((conjunction.criteria ?? []) as unknown[]).forEach((criterion, j) => {
      const where = `${at}.criteria[${j}]`;
      if (!isObject(criterion) || typeof criterion.field !== 'string') throw badRequest(`'${where}.field' is required and must be a string`);
      const field = fields[criterion.field];
      if (!field) throw badRequest(`'${where}.field' ${criterion.field} cannot filter relationships; use ${Object.keys(fields).join(', ')}`);
      if ((criterion.condition ?? 'EQUAL') !== 'EQUAL')
        throw badRequest(`'${where}.condition' must be EQUAL: relationship filters support no other condition`);
      if (criterion.negated === true) throw badRequest(`'${where}.negated' is not supported by relationship filters`);
      const values = criterion.values;
      if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === 'string')) {
        throw badRequest(`'${where}.values' must be a non-empty array of strings`);
      }
      // Two criteria on one field must both hold: keep the values they share.
      const prior = match[field];
      match[field] = prior ? prior.filter((v) => values.includes(v)) : [...(values as string[])];
    });
    return match;
  });
}
