import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { HttpResult, TestServer } from '../support/server.ts';

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,scroll.${name},PROD)`;
const JOB = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,prod),load)';
const node = (urn: string) => ({ entityType: urn.split(':')[2], urn });
const edge = (source: string, relationshipType: string, destination: string) => ({
  relationshipType,
  source: node(source),
  destination: node(destination),
});
const urnFilter = (...urns: string[]) => ({ and: [{ criteria: [{ field: 'urn', values: urns, condition: 'EQUAL' }] }] });

for (const backend of await backends()) {
  describe(`relationship and lineage scrolls over HTTP: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, async (s) => {
      server = s;
      await ingest(
        server,
        mcp(ds('b'), 'upstreamLineage', { upstreams: [{ dataset: ds('a'), type: 'COPY' }] }),
        mcp(ds('c'), 'upstreamLineage', { upstreams: [{ dataset: ds('b'), type: 'COPY' }] }),
        mcp(ds('c'), 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }),
        mcp(JOB, 'dataJobInputOutput', { inputDatasets: [ds('c')], outputDatasets: [ds('d')] }, 'dataJob'),
      );
    });

    const scroll = (query: string, body: unknown = {}): Promise<HttpResult> =>
      server.request('POST', `/openapi/v3/relationship/scroll?${query}`, { body });
    const lineage = (query: string, body: unknown = {}): Promise<HttpResult> =>
      server.request('POST', `/openapi/v3/lineage/scroll?${query}`, { body });

    it('scrolls edges of the given types in key order, a page at a time, with a scroll id while pages are full', async () => {
      const first = await scroll('relationshipTypes=DownstreamOf&count=1');
      assert.equal(first.status, 200, first.text);
      assert.deepEqual(first.json.results, [edge(ds('b'), 'DownstreamOf', ds('a'))]);
      assert.equal(typeof first.json.scrollId, 'string');
      const second = await scroll(`relationshipTypes=DownstreamOf&count=1&scrollId=${first.json.scrollId}`);
      assert.deepEqual(second.json.results, [edge(ds('c'), 'DownstreamOf', ds('b'))]);
      const last = await scroll(`relationshipTypes=DownstreamOf&count=1&scrollId=${second.json.scrollId}`);
      assert.deepEqual(last.json, { results: [] });
    });

    it('filters by source and destination urns and types, the way DataHubGraph.scroll_relationships sends them', async () => {
      const out = await scroll('sourceTypes=dataset', { sourceFilter: urnFilter(ds('c')) });
      assert.deepEqual(out.json.results, [edge(ds('c'), 'DownstreamOf', ds('b')), edge(ds('c'), 'TaggedWith', 'urn:li:tag:pii')]);
      const tagged = await scroll('destinationTypes=tag&relationshipTypes=TaggedWith');
      assert.deepEqual(tagged.json.results, [edge(ds('c'), 'TaggedWith', 'urn:li:tag:pii')]);
      // INCOMING turns the source filter onto the edge's destination.
      const incoming = await scroll('direction=INCOMING', { sourceFilter: urnFilter(ds('b')) });
      assert.deepEqual(incoming.json.results, [edge(ds('c'), 'DownstreamOf', ds('b'))]);
      const byEdge = await scroll('', { edgeFilter: { and: [{ criteria: [{ field: 'destination.urn', values: [ds('d')] }] }] } });
      assert.deepEqual(byEdge.json.results, [edge(JOB, 'Produces', ds('d'))]);
    });

    it('refuses filters it cannot apply, naming them, rather than ignoring them', async () => {
      for (const [query, body, message] of [
        [
          '',
          { sourceFilter: { and: [{ criteria: [{ field: 'platform', values: ['hive'] }] }] } },
          /sourceFilter.and\[0\].criteria\[0\].field' platform cannot filter/,
        ],
        ['', { edgeFilter: { and: [{ criteria: [{ field: 'via', values: ['x'], condition: 'CONTAIN' }] }] } }, /must be EQUAL/],
        ['', { sourceFilter: urnFilter(ds('c')), other: 1 }, /Unknown field 'other'/],
        ['direction=SIDEWAYS', {}, /Direction must be INCOMING, OUTGOING, or UNDIRECTED, got: SIDEWAYS/],
        ['sliceId=1&sliceMax=2', {}, /'sliceId' and 'sliceMax' are not supported/],
        ['scrollId=nonsense', {}, /'scrollId' is not a scroll id/],
      ] as const) {
        const res = await scroll(query, body);
        assert.equal(res.status, 400, res.text);
        assert.match(res.json.message, message);
      }
    });

    it('scrolls lineage edges touching the given urns, with their upstream and downstream ends', async () => {
      const res = await lineage('', { urns: [ds('c')] });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json.results, [
        { ...edge(JOB, 'Consumes', ds('c')), upstream: ds('c'), downstream: JOB },
        { ...edge(ds('c'), 'DownstreamOf', ds('b')), upstream: ds('b'), downstream: ds('c') },
      ]);
      const produced = await lineage('', { urns: [ds('d')] });
      assert.deepEqual(produced.json.results, [{ ...edge(JOB, 'Produces', ds('d')), upstream: JOB, downstream: ds('d') }]);
    });

    it('keeps only the edges that run the asked way from the urns, and leaves out edges that are not lineage', async () => {
      const up = await lineage('direction=UPSTREAM', { urns: [ds('c')] });
      assert.deepEqual(
        up.json.results.map((r: { upstream: string }) => r.upstream),
        [ds('b')],
      );
      const down = await lineage('direction=downstream', { urns: [ds('c')] });
      assert.deepEqual(
        down.json.results.map((r: { downstream: string }) => r.downstream),
        [JOB],
      );
      const all = await lineage('count=100');
      assert.ok(all.json.results.every((r: { relationshipType: string }) => r.relationshipType !== 'TaggedWith'));
      assert.equal(all.json.results.length, 4);
    });

    it('hides soft-deleted entities unless includeSoftDelete is true', async () => {
      await ingest(server, mcp(ds('a'), 'status', { removed: true }));
      assert.deepEqual((await scroll('relationshipTypes=DownstreamOf')).json.results, [edge(ds('c'), 'DownstreamOf', ds('b'))]);
      assert.equal((await scroll('relationshipTypes=DownstreamOf&includeSoftDelete=true')).json.results.length, 2);
      assert.equal((await lineage('', { urns: [ds('a')] })).json.results.length, 0);
      await ingest(server, mcp(ds('a'), 'status', { removed: false }));
    });
  });
}
