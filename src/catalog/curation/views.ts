import crypto from 'node:crypto';
import type { Catalog } from '../catalog.ts';
import { badRequest } from '../errors.ts';
import type { EntitySearch } from '../search/entity-search.ts';
import { parseUrn } from '../urn.ts';
import type { Json, Parts, SearchCriterion } from '../../storage/store.ts';
import { auditStampOf, type AspectEdits } from './aspect-edits.ts';

const VIEW = 'dataHubView';
const INFO = 'dataHubViewInfo';
/** The most views one list call answers. */
export const MAX_VIEWS_PAGE = 1000;

/** DataHub's FacetFilterInput, as a view's filter holds it. */
export interface ViewCriterion {
  readonly field: string;
  readonly values?: readonly string[] | null;
  readonly condition?: string | null;
  readonly negated?: boolean | null;
}

/** DataHub's DataHubViewDefinitionInput, its entity types already registry names. */
export interface ViewDefinition {
  readonly entityTypes: readonly string[];
  readonly filter: { readonly operator: 'AND' | 'OR'; readonly filters: readonly ViewCriterion[] };
}

export interface ViewInput {
  readonly viewType?: 'PERSONAL' | 'GLOBAL';
  readonly name?: string | null;
  readonly description?: string | null;
  readonly definition?: ViewDefinition | null;
}

/** Who may change a view: its type and its creator. */
export interface ViewOwnership {
  readonly type: string;
  readonly creator: string | null;
}

/** ResolverUtils.criterionFromFilter. */
const criterion = (c: ViewCriterion): Json => ({
  field: c.field,
  value: c.values?.[0] ?? '',
  values: [...(c.values ?? [])],
  condition: c.condition ?? 'EQUAL',
  negated: c.negated ?? false,
});

/** ViewUtils.mapFilter: AND is one conjunction of every criterion; OR is one conjunction per criterion. */
const definitionOf = (d: ViewDefinition): Json => ({
  entityTypes: [...d.entityTypes],
  filter: { or: d.filter.operator === 'AND' ? [{ and: d.filter.filters.map(criterion) }] : d.filter.filters.map((c) => ({ and: [criterion(c)] })) },
});

/**
 * DataHub's views, saved search filters (ViewService and the view resolvers): personal ones belong to their creator,
 * global ones to whoever manages global views. Creating is an ingest of dataHubViewInfo; updating is a locked
 * read-modify-write of it; the lists are searches of the views' index, newest first.
 */
export class Views {
  constructor(
    private readonly ports: Pick<Parts, 'aspects'>,
    private readonly catalog: Catalog,
    private readonly search: EntitySearch,
    private readonly edits: AspectEdits,
  ) {}

  /** The type and creator of an existing view; DataHub's refusal of a missing one. */
  async ownership(viewUrn: string): Promise<ViewOwnership> {
    const urn = parseUrn(viewUrn).raw;
    const info = (await this.ports.aspects.getAspect(urn, INFO))?.value;
    if (!info) throw badRequest(`Failed to modify View. View with urn ${urn} does not exist.`);
    const creator = (info.created as Json | undefined)?.actor;
    return { type: String(info.type), creator: typeof creator === 'string' ? creator : null };
  }

  /** createView: the new view's urn. */
  async create(input: ViewInput & { viewType: 'PERSONAL' | 'GLOBAL'; name: string; definition: ViewDefinition }, actor: string): Promise<string> {
    const urn = parseUrn(`urn:li:${VIEW}:${crypto.randomUUID()}`).raw;
    const stamp = auditStampOf(actor, this.edits.now());
    const info: Json = {
      name: input.name,
      ...(input.description != null ? { description: input.description } : {}),
      type: input.viewType,
      definition: definitionOf(input.definition),
      created: stamp,
      lastModified: stamp,
    };
    await this.catalog.ingest(
      [{ entityType: VIEW, urn, changeType: 'UPSERT', aspectName: INFO, value: info, systemMetadata: { properties: { appSource: 'ui' } } }],
      actor,
    );
    return urn;
  }

  /** updateView: the name, description and definition given; the rest as it was. */
  async update(viewUrn: string, input: ViewInput, actor: string): Promise<void> {
    const urn = parseUrn(viewUrn).raw;
    const missing = `Failed to perform update to View with urn ${urn}. Failed to find view in GMS.`;
    await this.edits.editExisting(
      { urn, entityType: VIEW, aspect: INFO },
      actor,
      () => badRequest(missing),
      (current, now) => ({
        ...current,
        ...(input.name != null ? { name: input.name } : {}),
        ...(input.description != null ? { description: input.description } : {}),
        ...(input.definition != null ? { definition: definitionOf(input.definition) } : {}),
        lastModified: auditStampOf(actor, now),
      }),
    );
  }

  /** listMyViews (the caller's, of one type if asked) and listGlobalViews: a page, newest first. */
  async list(filter: { creator?: string; type?: string | null }, page: { start: number; count: number; query: string }) {
    if (page.count < 0 || page.count > MAX_VIEWS_PAGE) throw badRequest(`count must be from 0 to ${MAX_VIEWS_PAGE}, got ${page.count}`);
    const criteria: SearchCriterion[] = [
      ...(filter.creator !== undefined ? [{ field: 'createdBy', values: [filter.creator] }] : []),
      ...(filter.type != null ? [{ field: 'type', values: [filter.type] }] : []),
    ];
    const result = await this.search.page(
      {
        entityTypes: [VIEW],
        ...(page.query.trim() !== '' ? { query: page.query } : {}),
        filter: criteria.length > 0 ? [criteria] : [],
        includeSoftDeleted: false,
        sort: [{ field: 'createdAt', order: 'DESCENDING' }],
      },
      page.start,
      page.count,
    );
    return { start: page.start, count: result.hits.length, total: await result.total(), urns: result.hits.map((h) => h.urn) };
  }
}
