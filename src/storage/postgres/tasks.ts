import pg from 'pg';
import type { NewTask, TaskPatch, TaskRecord, TaskRef, TaskState, TruncationStep } from '../store.ts';
import type { PortImpl } from '../compose-store.ts';
import type { PostgresChangeEvents } from './change-events.ts';
import { inTransaction } from './transaction.ts';
import type { TaskPort } from '../ports/tasks.ts';
import { newTaskColumns, progressPatch, taskPatchColumns, toTaskRecord, type TaskRow } from '../task-row.ts';

/** Advisory-lock class of task nodes ("almt"); the object id is hashtext(node id). */
const NODE_LOCK_CLASS = 0x616c6d74;
const RECONNECT_MILLIS = 1000;

/**
 * Background task records on PostgreSQL. Each process holds a session-level
 * advisory lock for its node id on a dedicated connection: when the process
 * dies, the server drops the connection and the lock, which is how another
 * process tells a crashed owner from a live one without trusting clocks.
 */
export class PostgresTasks implements PortImpl<TaskPort> {
  private nodeId: string | undefined;
  private nodeClient: pg.Client | undefined;
  private closed = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly newClient: () => pg.Client,
    private readonly events: PostgresChangeEvents,
  ) {}

  async createTask(t: NewTask): Promise<{ created: TaskRecord } | { running: TaskRecord }> {
    const columns = newTaskColumns(t);
    const names = Object.keys(columns);
    const cast = (n: string) => (n === 'params' || n === 'progress' ? '::jsonb' : '');
    for (;;) {
      const inserted = await this.pool.query<TaskRow>(
        `INSERT INTO tasks (${names.join(', ')}) VALUES (${names.map((n, i) => `$${i + 1}${cast(n)}`).join(', ')})
         ON CONFLICT (exclusive_key) WHERE state = 'running' DO NOTHING RETURNING *`,
        Object.values(columns),
      );
      if (inserted.rows[0]) return { created: toTaskRecord(inserted.rows[0]) };
      const running = await this.pool.query<TaskRow>("SELECT * FROM tasks WHERE exclusive_key = $1 AND state = 'running'", [t.exclusiveKey]);
      if (running.rows[0]) return { running: toTaskRecord(running.rows[0]) };
      // The running task ended between the two statements: try again.
    }
  }

  async updateTask(
    ref: TaskRef,
    patch: TaskPatch,
    { whileRunning = false }: { readonly whileRunning?: boolean } = {},
  ): Promise<TaskRecord | undefined> {
    const sets = taskPatchColumns(patch);
    const progress = progressPatch(patch);
    // || merges key by key: the patch's keys replace the stored ones, the rest stay.
    const assignments = [
      ...sets.map(([c], i) => `${c} = $${i + 3}`),
      ...(progress === null ? [] : [`progress = progress || $${sets.length + 3}::jsonb`]),
    ];
    const guard = whileRunning ? " AND state = 'running'" : '';
    const update = {
      text: `UPDATE tasks SET ${assignments.join(', ') || 'number = number'} WHERE number = $1 AND node_id = $2${guard} RETURNING *`,
      values: [ref.number, ref.nodeId, ...sets.map(([, v]) => v), ...(progress === null ? [] : [progress])],
    };
    if (patch.state === undefined) {
      const r = await this.pool.query<TaskRow>(update);
      return r.rows[0] && toTaskRecord(r.rows[0]);
    }
    // A state written may end the task, which may be an event: read the state it leaves in the same transaction.
    return inTransaction(this.pool, async (c) => {
      const previous = await c.query<{ state: string }>('SELECT state FROM tasks WHERE number = $1 AND node_id = $2 FOR UPDATE', [
        ref.number,
        ref.nodeId,
      ]);
      const r = await c.query<TaskRow>(update);
      const task = r.rows[0] && toTaskRecord(r.rows[0]);
      if (task) this.events.taskStateWritten(c, previous.rows[0]?.state, task);
      return task;
    });
  }

  async getTask(ref: TaskRef): Promise<TaskRecord | undefined> {
    const r = await this.pool.query<TaskRow>('SELECT * FROM tasks WHERE number = $1 AND node_id = $2', [ref.number, ref.nodeId]);
    return r.rows[0] && toTaskRecord(r.rows[0]);
  }

  async listTasks(filter: { state?: TaskState; kind?: string; limit: number }): Promise<TaskRecord[]> {
    const r = await this.pool.query<TaskRow>(
      'SELECT * FROM tasks WHERE ($1::text IS NULL OR state = $1) AND ($2::text IS NULL OR kind = $2) ORDER BY number DESC LIMIT $3',
      [filter.state ?? null, filter.kind ?? null, filter.limit],
    );
    return r.rows.map(toTaskRecord);
  }

  async pruneTasks(endedBefore: number): Promise<number> {
    return (await this.pool.query("DELETE FROM tasks WHERE state <> 'running' AND ended_at < $1", [endedBefore])).rowCount ?? 0;
  }

  async requestTaskCancel(ref: TaskRef): Promise<TaskRecord | undefined> {
    await this.pool.query("UPDATE tasks SET cancel_requested = true WHERE number = $1 AND node_id = $2 AND state = 'running'", [
      ref.number,
      ref.nodeId,
    ]);
    return this.getTask(ref);
  }

  /** Adds one truncation step to the task's counters (its progress), on the step's own transaction. */
  static async recordStep(c: pg.PoolClient, ref: TaskRef, step: TruncationStep): Promise<void> {
    await c.query(
      `UPDATE tasks SET progress = progress || jsonb_build_object(
         'rowsDeleted', (progress->>'rowsDeleted')::bigint + $1, 'batches', (progress->>'batches')::bigint + 1,
         'partitionsDropped', (progress->>'partitionsDropped')::bigint + $2, 'freedBytes', (progress->>'freedBytes')::bigint + $3)
       WHERE number = $4 AND node_id = $5`,
      [step.rows, step.partitionsDropped, step.freedBytes, ref.number, ref.nodeId],
    );
  }

  async heartbeatTasks(nodeId: string, now: number): Promise<void> {
    await this.pool.query("UPDATE tasks SET heartbeat_at = $1 WHERE node_id = $2 AND state = 'running'", [now, nodeId]);
  }

  async registerTaskNode(nodeId: string): Promise<void> {
    this.nodeId = nodeId;
    await this.holdNodeLock();
  }

  private async holdNodeLock(): Promise<void> {
    const client = this.newClient();
    client.on('error', () => undefined);
    await client.connect();
    await client.query('SELECT pg_try_advisory_lock($1, hashtext($2))', [NODE_LOCK_CLASS, this.nodeId]);
    client.once('end', () => {
      if (this.nodeClient === client) this.nodeClient = undefined;
      this.reconnectLater();
    });
    this.nodeClient = client;
  }

  /** A dropped connection released the lock: take it again, or other processes will think this one died. */
  private reconnectLater(): void {
    if (this.closed) return;
    setTimeout(() => {
      if (this.closed || this.nodeClient) return;
      this.holdNodeLock().catch(() => this.reconnectLater());
    }, RECONNECT_MILLIS).unref();
  }

  async isTaskNodeAlive(nodeId: string): Promise<boolean | undefined> {
    // A transaction's lock, released as the statement ends: no session state, so it holds behind a transaction pooler.
    const r = await this.pool.query<{ got: boolean }>('SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS got', [NODE_LOCK_CLASS, nodeId]);
    return !r.rows[0]!.got;
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.nodeClient;
    this.nodeClient = undefined;
    await client?.end().catch(() => undefined);
  }
}
