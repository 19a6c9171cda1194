// The search benchmark's catalog (issue 31): entity i of n is a dataset (90%), a chart (4%), a dashboard (3%) or a
// user (3%), each with the aspects a real catalog gives it, generated the same way on every run.
import type { Store, WriteOp } from '../src/storage/store.ts';

export const ADMIN = 'urn:li:corpuser:datahub';
const PLATFORMS = ['hive', 'snowflake', 'bigquery', 'postgres', 'kafka'];
const DOMAINS = ['sales', 'finance', 'marketing', 'ops', 'hr', 'product', 'logistics', 'support'];
const NOUNS = ['orders', 'customers', 'payments', 'invoices', 'events', 'sessions', 'clicks', 'shipments', 'refunds', 'accounts'];
const COLUMNS = ['id', 'created_at', 'updated_at', 'amount', 'currency', 'status', 'user_id', 'country', 'latitude', 'longitude', 'email', 'sku'];
const TAGS = ['urn:li:tag:gold', 'urn:li:tag:pii', 'urn:li:tag:raw', 'urn:li:tag:curated'];
const TOOLS = ['looker', 'tableau', 'superset'];

/** The word only one dataset in a thousand's description holds. */
export const RARE_WORD = 'zanzibar';

/** The word one entity in a hundred (a dataset's description) holds, and no other text starts with. */
export const PERCENT_WORD = 'archived';

type Kind = 'dataset' | 'chart' | 'dashboard' | 'corpuser';

/** What entity i is: the mix repeats every 100. */
export function kindOf(i: number): Kind {
  const r = i % 100;
  return r < 3 ? 'corpuser' : r < 6 ? 'dashboard' : r < 10 ? 'chart' : 'dataset';
}

/** A dataset's name (its properties' name), as a warehouse names a table. */
export const datasetName = (i: number): string => `${NOUNS[i % 10]}_${i}`;

/** A dataset near the middle of the corpus, for the exact-name search. */
export function middleDataset(n: number): number {
  let i = Math.floor(n / 2);
  while (kindOf(i) !== 'dataset') i++;
  return i;
}

const platformOf = (i: number) => `urn:li:dataPlatform:${PLATFORMS[i % PLATFORMS.length]}`;
const owner = (i: number) => ({ owners: [{ owner: `urn:li:corpuser:owner${i % 50}`, type: 'DATAOWNER' }], lastModified: { time: 0, actor: ADMIN } });
const audit = (i: number) => ({
  created: { time: 1_700_000_000_000 + i, actor: ADMIN },
  lastModified: { time: 1_700_000_000_000 + i, actor: ADMIN },
});

function opsOf(entityType: string, urn: string, aspects: ReadonlyArray<readonly [string, Record<string, unknown>]>): WriteOp[] {
  // The key aspect is written only if absent, as the catalog writes it.
  return aspects.map(([aspect, value], k) => ({ kind: 'aspect', entityType, urn, aspect, value, systemMetadata: null, onlyIfAbsent: k === 0 }));
}

/** A dataset: its key, a name and description, 10 to 50 columns, tags, an owner and custom properties. */
function datasetOps(i: number): WriteOp[] {
  const platform = platformOf(i);
  const columns = 10 + (i % 41);
  return opsOf('dataset', `urn:li:dataset:(${platform},${DOMAINS[i % 8]}.${datasetName(i)},PROD)`, [
    ['datasetKey', { platform, name: `${DOMAINS[i % 8]}.${datasetName(i)}`, origin: 'PROD' }],
    [
      'datasetProperties',
      {
        name: datasetName(i),
        description: `${DOMAINS[i % 8]} ${NOUNS[(i * 7) % 10]} kept for reporting; batch ${i % 97}${i % 1000 === 17 ? ` ${RARE_WORD}` : ''}${i % 100 === 50 ? ` ${PERCENT_WORD}` : ''}`,
        customProperties: { team: DOMAINS[(i * 3) % 8]!, tier: String(i % 3) },
      },
    ],
    [
      'schemaMetadata',
      {
        schemaName: datasetName(i),
        platform,
        version: 0,
        hash: '',
        platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
        fields: Array.from({ length: columns }, (_, c) => ({
          fieldPath: `${COLUMNS[(i + c) % COLUMNS.length]}${c < COLUMNS.length ? '' : `_${Math.floor(c / COLUMNS.length)}`}`,
          nativeDataType: 'string',
          type: { type: { 'com.linkedin.schema.StringType': {} } },
        })),
      },
    ],
    ['globalTags', { tags: [{ tag: TAGS[i % TAGS.length]! }, ...(i % 5 === 0 ? [{ tag: TAGS[(i + 1) % TAGS.length]! }] : [])] }],
    ['ownership', owner(i)],
  ]);
}

function chartOps(i: number): WriteOp[] {
  const tool = TOOLS[i % TOOLS.length]!;
  return opsOf('chart', `urn:li:chart:(${tool},chart_${i})`, [
    ['chartKey', { dashboardTool: tool, chartId: `chart_${i}` }],
    ['chartInfo', { title: `${NOUNS[i % 10]} by ${DOMAINS[i % 8]} ${i}`, description: `weekly ${NOUNS[(i * 3) % 10]}`, lastModified: audit(i) }],
    ['ownership', owner(i)],
  ]);
}

function dashboardOps(i: number): WriteOp[] {
  const tool = TOOLS[i % TOOLS.length]!;
  return opsOf('dashboard', `urn:li:dashboard:(${tool},dashboard_${i})`, [
    ['dashboardKey', { dashboardTool: tool, dashboardId: `dashboard_${i}` }],
    ['dashboardInfo', { title: `${DOMAINS[i % 8]} ${NOUNS[i % 10]} overview ${i}`, description: 'for the weekly review', lastModified: audit(i) }],
    ['ownership', owner(i)],
  ]);
}

function userOps(i: number): WriteOp[] {
  return opsOf('corpuser', `urn:li:corpuser:user${i}`, [
    ['corpUserKey', { username: `user${i}` }],
    ['corpUserInfo', { active: true, displayName: `User ${i}`, fullName: `User Number ${i}`, email: `user${i}@example.com`, title: DOMAINS[i % 8] }],
  ]);
}

/** Entity i's aspects. */
export function entityOps(i: number): WriteOp[] {
  switch (kindOf(i)) {
    case 'dataset':
      return datasetOps(i);
    case 'chart':
      return chartOps(i);
    case 'dashboard':
      return dashboardOps(i);
    case 'corpuser':
      return userOps(i);
  }
}

/** How many aspects entities [0, n) have. */
export const aspectCount = (n: number): number => {
  let total = 0;
  for (let i = 0; i < n; i++) total += entityOps(i).length;
  return total;
};

/**
 * Writes entities [from, to) through the store's write path (the index maintained as the store does), 200 entities
 * a transaction and four transactions in flight, and reports progress about every `every` entities.
 */
export async function load(store: Store, from: number, to: number, progress?: (done: number) => void, every = 50_000): Promise<void> {
  const batch = 200;
  let reported = from;
  for (let b = from; b < to; b += batch * 4) {
    await Promise.all(
      [0, 1, 2, 3].map(async (k) => {
        const start = b + k * batch;
        const ops: WriteOp[] = [];
        for (let i = start; i < Math.min(to, start + batch); i++) ops.push(...entityOps(i));
        if (ops.length > 0) await store.aspects.write({ ops, actor: ADMIN, now: Date.now() });
      }),
    );
    const done = Math.min(to, b + batch * 4);
    if (progress && (done - reported >= every || done === to)) {
      progress(done);
      reported = done;
    }
  }
}

/**
 * Entities [from, to) as DataHub's REST emitter sends them: `ingestProposalBatch` bodies of up to `batch` proposals
 * (the emitter's default is 200), every aspect but the key, which the server writes from the urn.
 */
export function proposalBodies(from: number, to: number, batch: number): string[] {
  const proposals: unknown[] = [];
  for (let i = from; i < to; i++) {
    for (const op of entityOps(i)) {
      if (op.kind !== 'aspect' || op.onlyIfAbsent) continue;
      proposals.push({
        entityType: op.entityType,
        entityUrn: op.urn,
        changeType: 'UPSERT',
        aspectName: op.aspect,
        aspect: { value: JSON.stringify(op.value), contentType: 'application/json' },
        systemMetadata: { lastObserved: 1_700_000_000_000, runId: 'bench-search' },
      });
    }
  }
  const bodies: string[] = [];
  for (let i = 0; i < proposals.length; i += batch) bodies.push(JSON.stringify({ proposals: proposals.slice(i, i + batch), async: 'false' }));
  return bodies;
}
