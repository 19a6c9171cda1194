import crypto from 'node:crypto';
import type { Catalog } from '../catalog.ts';
import { badRequest } from '../errors.ts';
import { checkBatchSize } from '../resource-refs.ts';
import { parseUrn } from '../urn.ts';
import type { Json, Parts, ReadParts } from '../../storage/store.ts';
import { type AspectEdits, auditStampOf, type AspectEdit } from './aspect-edits.ts';
import { addOwners } from './owners.ts';

const PRODUCT = 'dataProduct';
const PROPERTIES = 'dataProductProperties';

export interface CreateDataProductInput {
  readonly id?: string | null;
  readonly domainUrn: string;
  readonly properties: { readonly name: string; readonly description?: string | null };
}

const UI_SOURCE: Json = { properties: { appSource: 'ui' } };
const productMissing = (urn: string) => `Failed to update data products, data product ${urn} does not exist`;
const resourceMissing = (urn: string) => `Failed to update data products, resource ${urn} does not exist`;

const assetsOf = (v: Json | undefined): Json[] =>
  Array.isArray(v?.assets) ? (v.assets as Json[]).filter((a) => typeof a === 'object' && a !== null) : [];

/**
 * DataHub's data products (CreateDataProductResolver and DataProductService): a product belongs to a domain and lists
 * its assets in its properties (each asset's DataProductContains edge comes from there). Creating is an ingest of
 * the properties, the domain and the creator as owner in one transaction; adding and removing assets are locked
 * read-modify-writes of the products' properties.
 */
export class DataProducts {
  constructor(
    private readonly ports: Pick<Parts, 'aspects'> & Pick<ReadParts, 'relationships'>,
    private readonly catalog: Catalog,
    private readonly edits: AspectEdits,
  ) {}

  /** The domains of an existing product, whose data product managers may change it; refuses a missing product. */
  async domainsOf(productUrn: string): Promise<string[]> {
    const urn = parseUrn(productUrn).raw;
    const found = await this.ports.aspects.getEntities([urn], ['domains']);
    const stored = found.get(urn);
    if (stored === undefined) throw badRequest('The Data Product provided dos not exist');
    const domains = stored.find((a) => a.aspect === 'domains')?.value.domains;
    return Array.isArray(domains) ? domains.filter((d): d is string => typeof d === 'string') : [];
  }

  /** createDataProduct: the new product's urn (a random id unless one is given). */
  async create(input: CreateDataProductInput, actor: string): Promise<string> {
    const domain = parseUrn(input.domainUrn).raw;
    const id = input.id != null && input.id.trim() !== '' ? input.id : crypto.randomUUID();
    const urn = parseUrn(`urn:li:dataProduct:${id}`).raw;
    const found = await this.ports.aspects.existing([domain, urn]);
    // "dos" is DataHub's own typo; clients may match the text.
    if (!found.has(domain)) throw badRequest('The Domain provided dos not exist');
    if (found.has(urn)) throw badRequest('This Data product already exists!');
    const stamp = auditStampOf(actor, this.edits.now());
    const properties: Json = {
      name: input.properties.name,
      ...(input.properties.description != null ? { description: input.properties.description } : {}),
    };
    const creator = addOwners(undefined, [{ ownerUrn: actor, ownerEntityType: 'CORP_USER', type: 'TECHNICAL_OWNER' }], stamp);
    await this.catalog.ingest(
      [
        [PROPERTIES, properties],
        ['domains', { domains: [domain] }],
        ['ownership', creator],
      ].map(([aspectName, value]) => ({
        entityType: PRODUCT,
        urn,
        changeType: 'UPSERT',
        aspectName: aspectName as string,
        value,
        systemMetadata: UI_SOURCE,
      })),
      actor,
    );
    return urn;
  }

  /** updateDataProduct: the name and description given (either may be left as it is). */
  async update(productUrn: string, change: { name?: string | null; description?: string | null }, actor: string): Promise<void> {
    const urn = parseUrn(productUrn).raw;
    const missing = `Failed to update DataProduct. DataProduct with urn ${urn} does not exist.`;
    await this.edits.editExisting(
      { urn, entityType: PRODUCT, aspect: PROPERTIES },
      actor,
      () => badRequest(missing),
      (current) => ({
        ...current,
        ...(change.name != null ? { name: change.name } : {}),
        ...(change.description != null ? { description: change.description } : {}),
      }),
    );
  }

  /** batchSetDataProduct with a product: adds the assets it does not list yet, in one write of its properties. */
  async addAssets(productUrn: string, resourceUrns: readonly string[], actor: string): Promise<void> {
    await this.addToProducts('batchSetDataProduct', [productUrn], resourceUrns, actor);
  }

  /**
   * batchAddToDataProducts (and batchSetDataProduct's one product): each product lists the assets it does not list
   * yet, their other products left as they are; all products in one transaction.
   */
  async addToProducts(operation: string, productUrns: readonly string[], resourceUrns: readonly string[], actor: string): Promise<void> {
    const stamp = auditStampOf(actor, this.edits.now());
    await this.editProducts(operation, productUrns, resourceUrns, actor, (assets, resources) => {
      const listed = new Set(assets.map((a) => a.destinationUrn));
      const added = resources.filter((r) => !listed.has(r)).map((r) => ({ destinationUrn: r, created: stamp, lastModified: stamp }));
      return [...assets, ...added];
    });
  }

  /** batchRemoveFromDataProducts: each product stops listing the assets; their other products are left as they are. */
  async removeFromProducts(productUrns: readonly string[], resourceUrns: readonly string[], actor: string): Promise<void> {
    await this.editProducts('batchRemoveFromDataProducts', productUrns, resourceUrns, actor, (assets, resources) => {
      const gone = new Set(resources);
      return assets.filter((a) => !gone.has(a.destinationUrn as string));
    });
  }

  /** Checks that the products and the assets exist (DataHub's messages), then rewrites each product's asset list. */
  private async editProducts(
    operation: string,
    productUrns: readonly string[],
    resourceUrns: readonly string[],
    actor: string,
    change: (assets: Json[], resources: string[]) => Json[],
  ): Promise<void> {
    checkBatchSize(operation, 'resourceUrns', resourceUrns.length);
    checkBatchSize(operation, 'dataProductUrns', productUrns.length);
    const products = [...new Set(productUrns.map((u) => parseUrn(u).raw))];
    const resources = [...new Set(resourceUrns.map((u) => parseUrn(u).raw))];
    const found = await this.ports.aspects.existing([...products, ...resources]);
    for (const r of resources) if (!found.has(r)) throw badRequest(resourceMissing(r));
    for (const p of products) if (!found.has(p)) throw badRequest(productMissing(p));
    const edits = products.map((product): AspectEdit => ({
      urn: product,
      entityType: PRODUCT,
      aspect: PROPERTIES,
      update: (current) => {
        if (current === undefined) throw badRequest('Failed to batch set data product as data product does not exist');
        return { ...current, assets: change(assetsOf(current), resources) };
      },
    }));
    await this.edits.apply(edits, actor, this.edits.now(), productMissing);
  }

  /** batchSetDataProduct without one: each asset leaves every product listing it (found through DataProductContains). */
  async removeAssets(resourceUrns: readonly string[], actor: string): Promise<void> {
    checkBatchSize('batchSetDataProduct', 'resourceUrns', resourceUrns.length);
    const resources = resourceUrns.map((u) => parseUrn(u).raw);
    const found = await this.ports.aspects.existing(resources);
    for (const r of resources) if (!found.has(r)) throw badRequest(resourceMissing(r));
    // One read of the index for every asset: the products that list each (DataProductContains, product -> asset).
    const leaving = new Map<string, Set<string>>();
    const edges = await this.ports.relationships.relationshipHop({ urns: [...new Set(resources)], outgoing: [], incoming: ['DataProductContains'] });
    for (const edge of edges) leaving.set(edge.source, (leaving.get(edge.source) ?? new Set()).add(edge.destination));
    const edits = [...leaving].map(([product, gone]): AspectEdit => ({
      urn: product,
      entityType: PRODUCT,
      aspect: PROPERTIES,
      update: (current) => ({ ...current, assets: assetsOf(current).filter((a) => !gone.has(a.destinationUrn as string)) }),
    }));
    await this.edits.apply(edits, actor, this.edits.now(), productMissing);
  }
}
