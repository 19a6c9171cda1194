import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientBackends, useClientScript } from '../support/datahub-client.ts';

const TYPES: Record<string, string> = {
  dataset: 'DATASET',
  container: 'CONTAINER',
  chart: 'CHART',
  dashboard: 'DASHBOARD',
  dataFlow: 'DATA_FLOW',
  dataJob: 'DATA_JOB',
  tag: 'TAG',
  glossaryTerm: 'GLOSSARY_TERM',
  glossaryNode: 'GLOSSARY_NODE',
  mlModel: 'MLMODEL',
  mlModelGroup: 'MLMODEL_GROUP',
  domain: 'DOMAIN',
  corpGroup: 'CORP_GROUP',
  dataProduct: 'DATA_PRODUCT',
};

for (const backend of await clientBackends()) {
  describe(`Entities built with the DataHub SDK read back through DataHubGraph.execute_graphql: ${backend.name}`, { skip: backend.skip }, () => {
    const run = useClientScript(backend, 'sdk_entity_graphql.py', () => ({}));

    it('answers the root query of every type the SDK built', () => {
      const { urns, roots } = run.result as { urns: Record<string, string>; roots: Record<string, { urn: string; type: string }> };
      for (const [field, type] of Object.entries(TYPES)) assert.deepEqual(roots[field], { urn: urns[field], type }, field);
    });

    it('reads a dataset container, tags, terms with their node, owners, domain, links and browse path', () => {
      const { urns, detail } = run.result;
      assert.deepEqual(detail.container, { urn: urns.container, properties: { name: 'sdk_shop' } });
      assert.deepEqual(detail.parentContainers, { count: 1 });
      assert.deepEqual(detail.tags, { tags: [{ tag: { urn: urns.tag, properties: { name: 'PII' } } }] });
      assert.deepEqual(detail.glossaryTerms, { terms: [{ term: { urn: urns.glossaryTerm, parentNodes: { nodes: [{ urn: urns.glossaryNode }] } } }] });
      assert.deepEqual(detail.ownership, { owners: [{ owner: { urn: 'urn:li:corpuser:jdoe' } }] });
      assert.deepEqual(detail.domain, { domain: { urn: urns.domain, properties: { name: 'Commerce' } } });
      assert.deepEqual(detail.institutionalMemory, { elements: [{ url: 'https://wiki/orders', label: 'Runbook' }] });
      // The SDK writes the container chain as the dataset's browsePathsV2.
      assert.deepEqual(detail.browsePathV2, { path: [{ name: urns.container, entity: { urn: urns.container } }] });
    });

    it('lists domains, root glossary nodes and groups, a data product assets and a container entities', () => {
      const { urns, lists, product, container } = run.result;
      assert.deepEqual(lists.listDomains, { total: 1, domains: [{ urn: urns.domain }] });
      assert.deepEqual(lists.getRootGlossaryNodes, { nodes: [{ urn: urns.glossaryNode }] });
      assert.deepEqual(lists.listGroups, { groups: [{ urn: urns.corpGroup }] });
      assert.deepEqual(product.entities, { total: 1, searchResults: [{ entity: { urn: urns.dataset } }] });
      assert.deepEqual(container, {
        subTypes: { typeNames: ['Database'] },
        entities: { total: 1, searchResults: [{ entity: { urn: urns.dataset } }] },
      });
    });

    it('get_lineage finds the chart and the job downstream of the dataset, with the filters it sends', () => {
      const { urns, lineage } = run.result;
      assert.deepEqual(lineage, [urns.chart, urns.dataJob].sort());
    });
  });
}
