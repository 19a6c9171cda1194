import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Store, WriteOp } from '../../src/storage/store.ts';
import { backends } from '../support/databases.ts';
import { useStore } from '../support/lifecycle.ts';

const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const op = (entityType: string, urn: string, aspect: string, value: Record<string, unknown>): WriteOp => ({
  kind: 'aspect',
  entityType,
  urn,
  aspect,
  value,
  systemMetadata: null,
});

// Datasets a..f: b and e soft-deleted, d restored (removed, then not), f without a status aspect; one chart, removed.
const ALL = ['a', 'b', 'c', 'd', 'e', 'f'].map(dataset);
const REMOVED = [dataset('b'), dataset('e')];
const KEPT = ALL.filter((u) => !REMOVED.includes(u));
const CHART = 'urn:li:chart:(looker,1)';

for (const backend of await backends()) {
  describe(`entity listing conformance: ${backend.name}`, { skip: backend.skip }, () => {
    let store: Store;
    useStore(backend, (s) => (store = s));

    /** Every urn of the query, read in pages of `limit` after the last urn of the previous page. */
    const pages = async (
      query: Omit<Parameters<Store['aspects']['listEntityUrns']>[0], 'afterUrn' | 'limit'>,
      limit: number,
    ): Promise<string[][]> => {
      const out: string[][] = [];
      let afterUrn: string | undefined;
      for (;;) {
        const page = await store.aspects.listEntityUrns({ ...query, afterUrn, limit });
        if (page.length === 0) return out;
        out.push(page);
        afterUrn = page.at(-1);
      }
    };

    it('lists the urns of one type in urn order, a page at a time, after a given urn', async () => {
      await store.aspects.write({
        ops: [
          ...ALL.filter((u) => u !== dataset('f')).map((u) => op('dataset', u, 'status', { removed: REMOVED.includes(u) || u === dataset('d') })),
          op('dataset', dataset('f'), 'datasetProperties', { name: 'f' }),
          op('chart', CHART, 'status', { removed: true }),
        ],
        actor: 'urn:li:corpuser:test',
        now: 1,
      });
      await store.aspects.write({ ops: [op('dataset', dataset('d'), 'status', { removed: false })], actor: 'urn:li:corpuser:test', now: 2 });
      assert.deepEqual(await pages({ entityType: 'dataset' }, 4), [ALL.slice(0, 4), ALL.slice(4)]);
      assert.deepEqual(await store.aspects.listEntityUrns({ entityType: 'dataset', afterUrn: dataset('c'), limit: 2 }), [dataset('d'), dataset('e')]);
      assert.deepEqual(await store.aspects.listEntityUrns({ entityType: 'chart', limit: 10 }), [CHART]);
      assert.deepEqual(await store.aspects.listEntityUrns({ entityType: 'dashboard', limit: 10 }), []);
    });

    it('lists only soft-deleted entities by their latest status, and only the others', async () => {
      assert.deepEqual(
        await pages({ entityType: 'dataset', removed: true }, 1),
        REMOVED.map((u) => [u]),
      );
      assert.deepEqual((await pages({ entityType: 'dataset', removed: false }, 2)).flat(), KEPT);
      assert.deepEqual(await store.aspects.listEntityUrns({ entityType: 'chart', removed: true, limit: 10 }), [CHART]);
      assert.deepEqual(await store.aspects.listEntityUrns({ entityType: 'chart', removed: false, limit: 10 }), []);
    });

    it('finds the latest values of named aspects that mention a text, a page at a time in (urn, aspect) order', async () => {
      const tagged = (name: string) => op('dataset', dataset(name), 'globalTags', { tags: [{ tag: `urn:li:tag:${name === 'a' ? 'x' : 'pii'}` }] });
      await store.aspects.write({ ops: ['a', 'b', 'c'].map(tagged), actor: 'urn:li:corpuser:test', now: 3 });
      await store.aspects.write({
        ops: [op('dataset', dataset('c'), 'globalTags', { tags: [] }), op('dataset', dataset('c'), 'datasetProperties', { name: 'urn:li:tag:pii' })],
        actor: 'urn:li:corpuser:test',
        now: 4,
      });
      const query = { aspects: ['globalTags', 'datasetProperties'], text: 'urn:li:tag:pii' };
      const first = await store.aspects.findAspectsMentioning({ ...query, limit: 1 });
      assert.deepEqual(
        first.map((a) => [a.urn, a.aspect, a.version]),
        [[dataset('b'), 'globalTags', 0]],
      );
      const rest = await store.aspects.findAspectsMentioning({ ...query, after: { urn: first[0]!.urn, aspect: first[0]!.aspect }, limit: 10 });
      assert.deepEqual(
        rest.map((a) => [a.urn, a.aspect]),
        [[dataset('c'), 'datasetProperties']],
        'only latest versions, only the aspects named',
      );
      assert.deepEqual(await store.aspects.findAspectsMentioning({ aspects: ['globalTags'], text: 'urn:li:tag:none', limit: 10 }), []);
    });

    it('follows a restore and a hard delete at once', async () => {
      await store.aspects.write({ ops: [op('dataset', dataset('b'), 'status', { removed: false })], actor: 'urn:li:corpuser:test', now: 3 });
      await store.aspects.deleteEntity(dataset('e'));
      assert.deepEqual(await store.aspects.listEntityUrns({ entityType: 'dataset', removed: true, limit: 10 }), []);
      assert.deepEqual(
        await store.aspects.listEntityUrns({ entityType: 'dataset', limit: 10 }),
        ALL.filter((u) => u !== dataset('e')),
      );
    });
  });
}
