import type Database from 'better-sqlite3';
import type { NewTask, TaskPatch, TaskRecord, TaskRef, TaskState, TruncationStep } from '../store.ts';
import type { PortImpl } from '../compose-store.ts';
import type { TaskPort } from '../ports/tasks.ts';
import type { SqliteChangeEvents } from './change-events.ts';
import { newTaskColumns, progressPatch, taskPatchColumns, toTaskRecord, type TaskRow } from '../task-row.ts';

const isUniqueViolation = (e: unknown): boolean => (e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';

/** Background task records on SQLite. */
export class SqliteTasks implements PortImpl<TaskPort> {
  constructor(
    private readonly db: Database.Database,
    private readonly sql: (text: string) => Database.Statement,
    private readonly events: SqliteChangeEvents,
  ) {}

  private runningWith(key: string): TaskRecord | undefined {
    const row = this.sql("SELECT * FROM tasks WHERE exclusive_key = ? AND state = 'running'").get(key) as TaskRow | undefined;
    return row && toTaskRecord(row);
  }

  createTask(t: NewTask): { created: TaskRecord } | { running: TaskRecord } {
    const columns = newTaskColumns(t);
    const names = Object.keys(columns);
    const insert = this.sql(`INSERT INTO tasks (${names.join(', ')}) VALUES (${names.map((n) => `@${n}`).join(', ')}) RETURNING *`);
    return this.db
      .transaction(() => {
        try {
          return { created: toTaskRecord(insert.get(columns) as TaskRow) };
        } catch (e) {
          if (!isUniqueViolation(e) || t.exclusiveKey === null) throw e;
          // Inside the same write transaction, so the running task cannot finish in between.
          return { running: this.runningWith(t.exclusiveKey)! };
        }
      })
      .immediate();
  }

  updateTask(ref: TaskRef, patch: TaskPatch, options: { readonly whileRunning?: boolean } = {}): TaskRecord | undefined {
    // A state written may end the task, which may be an event: read the state it leaves in the same transaction.
    if (patch.state === undefined) return this.writeTask(ref, patch, options);
    return this.db
      .transaction(() => {
        const previous = this.sql('SELECT state FROM tasks WHERE number = ? AND node_id = ?').get(ref.number, ref.nodeId) as
          { state: string } | undefined;
        const task = this.writeTask(ref, patch, options);
        if (task) this.events.taskStateWritten(previous?.state, task);
        return task;
      })
      .immediate();
  }

  private writeTask(ref: TaskRef, patch: TaskPatch, { whileRunning = false }: { readonly whileRunning?: boolean }): TaskRecord | undefined {
    const sets = taskPatchColumns(patch);
    const progress = progressPatch(patch);
    // json_patch merges key by key (RFC 7396): the patch's keys replace the stored ones, the rest stay.
    const assignments = [...sets.map(([c]) => `${c} = ?`), ...(progress === null ? [] : ['progress = json_patch(progress, ?)'])];
    const guard = whileRunning ? " AND state = 'running'" : '';
    const row = this.sql(`UPDATE tasks SET ${assignments.join(', ') || 'number = number'} WHERE number = ? AND node_id = ?${guard} RETURNING *`).get(
      ...sets.map(([, v]) => v),
      ...(progress === null ? [] : [progress]),
      ref.number,
      ref.nodeId,
    ) as TaskRow | undefined;
    return row && toTaskRecord(row);
  }

  getTask(ref: TaskRef): TaskRecord | undefined {
    const row = this.sql('SELECT * FROM tasks WHERE number = ? AND node_id = ?').get(ref.number, ref.nodeId) as TaskRow | undefined;
    return row && toTaskRecord(row);
  }

  listTasks(filter: { state?: TaskState; kind?: string; limit: number }): TaskRecord[] {
    const rows = this.sql(
      'SELECT * FROM tasks WHERE (@state IS NULL OR state = @state) AND (@kind IS NULL OR kind = @kind) ORDER BY number DESC LIMIT @limit',
    ).all({
      state: filter.state ?? null,
      kind: filter.kind ?? null,
      limit: filter.limit,
    }) as TaskRow[];
    return rows.map(toTaskRecord);
  }

  pruneTasks(endedBefore: number): number {
    return this.sql("DELETE FROM tasks WHERE state <> 'running' AND ended_at < ?").run(endedBefore).changes;
  }

  requestTaskCancel(ref: TaskRef): TaskRecord | undefined {
    this.sql("UPDATE tasks SET cancel_requested = 1 WHERE number = ? AND node_id = ? AND state = 'running'").run(ref.number, ref.nodeId);
    return this.getTask(ref);
  }

  /** Adds one truncation step to the task's counters (its progress); called inside the step's own transaction. */
  recordStep(ref: TaskRef, step: TruncationStep): void {
    this.sql(
      `UPDATE tasks SET progress = json_set(progress,
         '$.rowsDeleted', json_extract(progress, '$.rowsDeleted') + ?, '$.batches', json_extract(progress, '$.batches') + 1,
         '$.partitionsDropped', json_extract(progress, '$.partitionsDropped') + ?, '$.freedBytes', json_extract(progress, '$.freedBytes') + ?)
       WHERE number = ? AND node_id = ?`,
    ).run(step.rows, step.partitionsDropped, step.freedBytes, ref.number, ref.nodeId);
  }

  heartbeatTasks(nodeId: string, now: number): void {
    this.sql("UPDATE tasks SET heartbeat_at = ? WHERE node_id = ? AND state = 'running'").run(now, nodeId);
  }

  /** One SQLite file is served by one process, which knows its own tasks: nothing to publish. */
  registerTaskNode(_nodeId: string): void {}

  isTaskNodeAlive(_nodeId: string): boolean | undefined {
    return undefined;
  }
}
