import { findEntitySpec } from '../../catalog/registry/index.ts';
import { parseUrn } from '../../catalog/urn.ts';
import type { Json } from '../../storage/store.ts';
import { objects } from './associations.ts';
import { parentChain, str } from './entity-fields.ts';
import { aspectOf, entityRef } from './entity-refs.ts';
import type { GraphqlContext, Resolver } from './schema.ts';

/**
 * An entity's browse paths, DataHub's two kinds: the stored aspect, or the
 * default DataHub generates when ingestion sent none (BrowsePathUtils and
 * BrowsePathV2Utils: a dataset's by its origin, platform and name; a job under
 * its flow; a container chain; else a "Default" folder).
 */

/** The folder DataHub puts an entity in when nothing better is known. */
const DEFAULT_FOLDER = 'Default';
/** DataHub's platform delimiter for dataset names. */
const DELIMITER = '.';

interface Source {
  readonly urn: string;
}

/** The key parts of an urn by key field name. */
function keyOf(urn: string): { entity: string; key: Record<string, string> } | null {
  try {
    const parsed = parseUrn(urn);
    const spec = findEntitySpec(parsed.entityType);
    if (!spec) return null;
    return { entity: spec.name, key: Object.fromEntries(spec.keyFields.map((f, i) => [f, parsed.parts[i] ?? ''])) };
  } catch {
    return null;
  }
}

const lastPart = (urn: string): string => {
  const k = keyOf(urn);
  return k ? (Object.values(k.key)[0] ?? '') : urn;
};

/** DataHub's default browse path (v1) of an entity, or none. */
export function defaultBrowsePath(urn: string): string | null {
  const k = keyOf(urn);
  if (!k) return null;
  const { entity, key } = k;
  switch (entity) {
    case 'dataset': {
      const parts = (key.name ?? '').split(DELIMITER).filter((p) => p !== '');
      const folders = parts.length > 1 ? `/${parts.slice(0, -1).join('/')}` : '';
      return `/${key.origin}/${lastPart(key.platform ?? '')}${folders}`.toLowerCase();
    }
    case 'chart':
      return `/${key.dashboardTool}`;
    case 'dashboard':
      return `/${key.dashboardTool}`.toLowerCase();
    case 'dataFlow':
      return `/${key.orchestrator}/${key.cluster}`.toLowerCase();
    case 'dataJob': {
      const flow = keyOf(key.flow ?? '');
      return flow ? `/${flow.key.orchestrator}/${flow.key.cluster}`.toLowerCase() : null;
    }
    default:
      return null;
  }
}

/** The stored browse paths, else the default; each split into its folders. */
export async function browsePaths(ctx: GraphqlContext, urn: string): Promise<string[]> {
  const stored = await aspectOf(ctx, urn, 'browsePaths');
  if (stored) return (Array.isArray(stored.paths) ? stored.paths : []).filter((p): p is string => typeof p === 'string');
  const path = defaultBrowsePath(urn);
  return path ? [path] : [];
}

export interface BrowsePathEntry {
  readonly id: string;
  readonly urn?: string;
}

/** The stored browsePathsV2, else DataHub's default. */
export async function browsePathV2(ctx: GraphqlContext, urn: string): Promise<BrowsePathEntry[]> {
  const stored = await aspectOf(ctx, urn, 'browsePathsV2');
  if (stored) return objects(stored.path).map((e: Json) => ({ id: str(e.id) ?? '', ...(str(e.urn) ? { urn: str(e.urn)! } : {}) }));
  const k = keyOf(urn);
  if (!k) return [{ id: DEFAULT_FOLDER }];
  if (k.entity === 'dataJob' && k.key.flow) return [{ id: k.key.flow, urn: k.key.flow }];
  if (['dataset', 'chart', 'dashboard'].includes(k.entity)) {
    const chain = (await parentChain(ctx, urn, 'container', 'container')).reverse();
    if (chain.length > 0) return chain.map((c) => ({ id: c, urn: c }));
  }
  if (k.entity === 'dataset') {
    const parts = (k.key.name ?? '').split(DELIMITER).filter((p) => p !== '');
    if (parts.length > 1) return parts.slice(0, -1).map((id) => ({ id }));
  }
  return [{ id: DEFAULT_FOLDER }];
}

/** `browsePaths`: DataHub's [BrowsePath!], each path's folders. */
export const browsePathsField: Resolver = async (e: Source, _a, ctx) =>
  (await browsePaths(ctx, e.urn)).map((p) => ({ path: p.split('/').filter((s) => s !== '') }));

/** `browsePathV2`: each entry with the entity it names, when it names one. */
export const browsePathV2Field: Resolver = async (e: Source, _a, ctx) => ({
  path: await Promise.all((await browsePathV2(ctx, e.urn)).map(async (p) => ({ name: p.id, entity: p.urn ? await entityRef(ctx, p.urn) : null }))),
});
