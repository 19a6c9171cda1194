import type { SearchDocuments } from '../../storage/store.ts';
import { badRequest } from '../errors.ts';
import { entitySpec, findEntitySpec } from '../registry/index.ts';
import { DEFAULT_QUERY_BOOSTS } from './search-entries.ts';
import { baseFieldName } from './search-filter.ts';
import { foldText } from './search-tokens.ts';

/** The catalog's rules the search index reads by (given to the store when it opens, open-store.ts). */
export const searchDocuments: SearchDocuments = {
  // GraphQL's EntityType names (DATA_JOB) as well as the registry's (dataJob).
  entityType: (name) => (findEntitySpec(name) ?? entitySpec(name.replace(/_/g, ''))).name,
  baseField: baseFieldName,
  fold: foldText,
  invalidScrollId: (scrollId) => badRequest(`Invalid scrollId ${scrollId}: pass back a nextScrollId this server returned, unchanged`),
  boosts: DEFAULT_QUERY_BOOSTS,
};
