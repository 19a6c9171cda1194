import type { TaskRef } from '../storage/store.ts';

/** DataHub's shape of an Elasticsearch task id, which Almanac's ids keep. */
const TASK_ID = /^[a-zA-Z0-9_-]+:[0-9]+$/;

export const formatTaskId = (ref: TaskRef): string => `${ref.nodeId}:${ref.number}`;

/** `<nodeId>:<number>` with a non-zero number, as getEsTaskStatus accepts it; undefined otherwise. */
export function parseTaskId(text: string): TaskRef | undefined {
  if (!TASK_ID.test(text)) return undefined;
  const colon = text.lastIndexOf(':');
  const number = Number(text.slice(colon + 1));
  if (!Number.isSafeInteger(number) || number === 0) return undefined;
  return { nodeId: text.slice(0, colon), number };
}
