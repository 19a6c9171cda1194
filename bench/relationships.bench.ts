// The relationship index on a lineage graph of 10,000 datasets with 10 upstreams each (100,000 DownstreamOf edges):
// one hop from a dataset at the store (DataHub's findRelatedEntities, both ways), and a depth-3 downstream walk
// (Rest.li getLineage's work, one read per hop). Each against a ceiling measured in the same run: the same indexed
// reads in raw SQL on a connection of its own, without the soft-deletion check, the mapping or the registry.
import Database from 'better-sqlite3';
import pg from 'pg';
import { RelationshipService } from '../src/catalog/relationships/relationship-service.ts';
import { openStore } from '../src/storage/open-store.ts';
import { RELATIONSHIPS_MIGRATION } from '../src/storage/sqlite/migrations.ts';
import type { Store, WriteOp } from '../src/storage/store.ts';
import type { TestDatabase } from '../test/support/databases.ts';
import { DeprecationImpact } from '../src/catalog/deprecation-impact.ts';
import { benchBackends, fmt, intFlag, percentile, printTable } from './support.ts';

const ACTOR = 'urn:li:corpuser:datahub';
const TYPE = 'DownstreamOf';
// The relationship index's migration (RELATIONSHIPS_MIGRATION; both adapters number it alike), undone to time its backfill.
const UNMIGRATE = `DROP TABLE relationships; DROP TABLE soft_deletions; DELETE FROM schema_migrations WHERE version = ${RELATIONSHIPS_MIGRATION};`;
const urn = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,bench.lineage_${i},PROD)`;

/** A small deterministic generator, so every run builds the same graph. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** Each dataset reads from up to `fanIn` older ones: a DAG, as pipelines are. */
function upstreamsOf(i: number, fanIn: number, random: () => number): number[] {
  const picks = new Set<number>();
  while (picks.size < Math.min(fanIn, i)) picks.add(Math.floor(random() * i));
  return [...picks];
}

async function seed(store: Store, datasets: number, fanIn: number): Promise<number> {
  const random = lcg(42);
  let edges = 0;
  for (let start = 0; start < datasets; start += 500) {
    const ops: WriteOp[] = [];
    for (let i = start; i < Math.min(datasets, start + 500); i++) {
      const ups = upstreamsOf(i, fanIn, random);
      edges += ups.length;
      const value = { upstreams: ups.map((u) => ({ dataset: urn(u), type: 'TRANSFORMED', auditStamp: { time: 0, actor: ACTOR } })) };
      ops.push({ kind: 'aspect', entityType: 'dataset', urn: urn(i), aspect: 'upstreamLineage', value, systemMetadata: null });
    }
    await store.aspects.write({ ops, actor: ACTOR, now: Date.now() });
  }
  return edges;
}

/** The raw reads: one hop (count and first page) and one walk hop (every source into a set of urns). */
interface Raw {
  hop(urn: string, direction: 'OUTGOING' | 'INCOMING'): Promise<number>;
  downstreams(urns: readonly string[]): Promise<string[]>;
  /** Planner statistics, as a database in use has them (PostgreSQL's autovacuum would gather them within a minute). */
  analyze(): Promise<void>;
  /** Takes the database back to before the relationship index's migration, aspects kept, so the next open backfills the index. */
  unmigrate(): Promise<void>;
  close(): Promise<void>;
}

function rawSqlite(db: TestDatabase): Raw {
  if (db.config.kind !== 'sqlite') throw new Error('not sqlite');
  const file = db.config.path;
  const raw = new Database(file, { readonly: true });
  const page = {
    OUTGOING: raw.prepare(
      'SELECT destination_urn, relationship_type, via_urn FROM relationships WHERE source_urn = ? AND relationship_type = ? ORDER BY destination_urn LIMIT 200',
    ),
    INCOMING: raw.prepare(
      'SELECT source_urn, relationship_type, via_urn FROM relationships WHERE destination_urn = ? AND relationship_type = ? ORDER BY source_urn LIMIT 200',
    ),
  };
  const count = {
    OUTGOING: raw.prepare('SELECT count(*) AS n FROM relationships WHERE source_urn = ? AND relationship_type = ?'),
    INCOMING: raw.prepare('SELECT count(*) AS n FROM relationships WHERE destination_urn = ? AND relationship_type = ?'),
  };
  const walk = raw
    .prepare('SELECT source_urn FROM relationships WHERE destination_urn IN (SELECT value FROM json_each(?)) AND relationship_type = ?')
    .pluck();
  return {
    hop: async (u, d) => (count[d].get(u, TYPE) as { n: number }).n + page[d].all(u, TYPE).length,
    downstreams: async (urns) => walk.all(JSON.stringify(urns), TYPE) as string[],
    analyze: async () => undefined,
    unmigrate: async () => {
      const rw = new Database(file);
      rw.exec(UNMIGRATE);
      rw.close();
    },
    close: async () => void raw.close(),
  };
}

async function rawPostgres(db: TestDatabase): Promise<Raw> {
  if (db.config.kind !== 'postgres') throw new Error('not postgres');
  const c = new pg.Client({ connectionString: db.config.url });
  await c.connect();
  const hopSql = (anchor: string, other: string) =>
    `SELECT ${other}, relationship_type, via_urn, count(*) OVER () AS n FROM relationships WHERE ${anchor} = $1 AND relationship_type = $2 ORDER BY ${other} LIMIT 200`;
  return {
    hop: async (u, d) =>
      (
        await c.query({
          name: `raw-hop-${d}`,
          text: d === 'OUTGOING' ? hopSql('source_urn', 'destination_urn') : hopSql('destination_urn', 'source_urn'),
          values: [u, TYPE],
        })
      ).rows.length,
    downstreams: async (urns) =>
      (
        await c.query<{ source_urn: string }>({
          name: 'raw-walk',
          text: 'SELECT source_urn FROM relationships WHERE destination_urn = ANY($1::text[]) AND relationship_type = $2',
          values: [urns, TYPE],
        })
      ).rows.map((r) => r.source_urn),
    analyze: async () => void (await c.query('ANALYZE relationships')),
    unmigrate: async () => void (await c.query(UNMIGRATE)),
    close: () => c.end(),
  };
}

/** The ceiling's walk: the same breadth-first hops, a visited set, nothing else. */
async function rawWalk(raw: Raw, start: string, hops: number): Promise<number> {
  const seen = new Set([start]);
  let frontier = [start];
  for (let h = 0; h < hops && frontier.length > 0; h++) {
    const next = [];
    for (const u of await raw.downstreams(frontier)) {
      if (!seen.has(u)) {
        seen.add(u);
        next.push(u);
      }
    }
    frontier = next;
  }
  return seen.size - 1;
}

async function latencies(samples: readonly string[], fn: (u: string) => Promise<unknown>): Promise<number[]> {
  for (const u of samples.slice(0, 50)) await fn(u); // warm caches and prepared statements
  const out: number[] = [];
  for (const u of samples) {
    const t = performance.now();
    await fn(u);
    out.push(performance.now() - t);
  }
  return out.sort((a, b) => a - b);
}

const ms = (sorted: readonly number[]) => `${fmt(percentile(sorted, 50), 3)} / ${fmt(percentile(sorted, 99), 3)}`;

export default async function relationshipsBench(args: string[]): Promise<void> {
  const datasets = intFlag(args, 'datasets', 10_000);
  const fanIn = intFlag(args, 'fan-in', 10);
  const samples = intFlag(args, 'samples', 500);
  const rows: string[][] = [];
  for (const backend of await benchBackends(args)) {
    const db = await backend.create();
    const store = await openStore(db.config);
    let raw: Raw | undefined;
    try {
      const t = performance.now();
      const edges = await seed(store, datasets, fanIn);
      const loadSeconds = (performance.now() - t) / 1000;
      raw = db.name === 'sqlite' ? rawSqlite(db) : await rawPostgres(db);
      await raw.analyze();
      const service = new RelationshipService(store);
      const random = lcg(7);
      const picks = Array.from({ length: samples }, () => urn(Math.floor(random() * datasets)));

      for (const direction of ['OUTGOING', 'INCOMING'] as const) {
        const almanac = await latencies(picks, (u) =>
          store.relationships.relatedEntities({ urn: u, direction, types: [TYPE], start: 0, count: 200 }),
        );
        const ceiling = await latencies(picks, (u) => raw!.hop(u, direction));
        rows.push([
          db.name,
          `one hop ${direction} (store.relationships.relatedEntities, page of 200 + total)`,
          fmt(edges),
          ms(almanac),
          ms(ceiling),
          `${fmt((percentile(ceiling, 50) / percentile(almanac, 50)) * 100, 1)}%`,
        ]);
      }
      const reached: number[] = [];
      const walk = await latencies(picks, async (u) =>
        reached.push((await service.lineage({ urn: u, direction: 'DOWNSTREAM', start: 0, count: 10_000, maxHops: 3 })).total),
      );
      const rawReached: number[] = [];
      const rawWalks = await latencies(picks, async (u) => rawReached.push(await rawWalk(raw!, u, 3)));
      if (reached.slice(-samples).join() !== rawReached.slice(-samples).join())
        throw new Error('the walk and its ceiling reached different entities');
      const sorted = reached.slice(-samples).sort((a, b) => a - b);
      rows.push([
        db.name,
        `depth-3 downstream walk (getLineage, maxHops 3; reaches ${fmt(percentile(sorted, 50))} median, ${fmt(sorted.at(-1)!)} max)`,
        fmt(datasets),
        ms(walk),
        ms(rawWalks),
        `${fmt((percentile(rawWalks, 50) / percentile(walk, 50)) * 100, 1)}%`,
      ]);
      // Issue 18's target: a deprecation's impact to depth 3 in 20 ms. It is the walk above, then the owners of what it
      // lists (at most 1,000 entities), beside the same raw walk as its ceiling.
      const impact = new DeprecationImpact(store, service);
      const impacts = await latencies(picks, (u) => impact.downstream(u, 3));
      rows.push([
        db.name,
        'deprecation impact to depth 3 (deprecationImpact: the walk, then the owners of up to 1,000 listed)',
        fmt(datasets),
        ms(impacts),
        ms(rawWalks),
        `${fmt((percentile(rawWalks, 50) / percentile(impacts, 50)) * 100, 1)}%`,
      ]);
      console.log(`(${db.name}: ${fmt(datasets)} datasets and ${fmt(edges)} edges loaded through store.aspects.write in ${fmt(loadSeconds, 1)} s)`);
      await store.database.close();
      await raw.unmigrate();
      const t0 = performance.now();
      await (await openStore(db.config)).database.close();
      const backfill = (performance.now() - t0) / 1000;
      console.log(
        `(${db.name}: migration ${RELATIONSHIPS_MIGRATION} indexed the ${fmt(datasets)} stored aspects, ${fmt(edges)} edges, on open in ${fmt(backfill, 2)} s)`,
      );
    } finally {
      await raw?.close();
      await store.database.close().catch(() => undefined);
      await db.drop();
    }
  }
  printTable(['backend', 'measure', 'graph', 'Almanac p50 / p99 ms', 'raw SQL p50 / p99 ms', 'ceiling ÷ Almanac (p50)'], rows);
}
