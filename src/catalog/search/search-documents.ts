import type { SearchDocuments } from '../../storage/store.ts';
import { badRequest } from '../errors.ts';
import { entitySpec } from '../registry/index.ts';
import { parseUrn } from '../urn.ts';
import { aspectsForFields, baseFieldName, searchDocument } from './search-document.ts';
import { foldText } from './search-tokens.ts';
import { compareDocuments, filterFields, matchesFilter, matchesText } from './search-filter.ts';

/**
 * The catalog's search documents, given to the search part when the store opens (open-store.ts): the registry's
 * `@Searchable` fields, DataHub's filter conditions and Almanac's full-text rule.
 */
export const searchDocuments: SearchDocuments = {
  entityType: (name) => entitySpec(name).name,
  baseField: baseFieldName,
  fieldsOf: filterFields,
  aspectsFor: aspectsForFields,
  document: (entityType, urn, aspects, fields) => searchDocument(entityType, urn, parseUrn(urn).parts, aspects, fields),
  matches: (doc, filter, query) => matchesFilter(doc, filter) && matchesText(doc, query),
  compare: compareDocuments,
  fold: foldText,
  invalidScrollId: (scrollId) => badRequest(`Invalid scrollId ${scrollId}: pass back a nextScrollId this server returned, unchanged`),
};
