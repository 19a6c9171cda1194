import { badRequest } from '../errors.ts';
import type { Parts } from '../../storage/store.ts';
import { isTopic, TOPICS, type Topic } from './change-log.ts';

/** DataHub's ExternalEventsController: at most 5,000 events and 10 seconds a poll; 100 and 5 seconds by default. */
export const MAX_LIMIT = 5000;
export const MAX_POLL_TIMEOUT_SECONDS = 10;
export const DEFAULT_LIMIT = 100;
export const DEFAULT_POLL_TIMEOUT_SECONDS = 5;
const DAY_MILLIS = 86_400_000;

/** The query as the route hands it over: each parameter's raw text, if given. */
export interface PollQuery {
  readonly topic?: string;
  readonly offsetId?: string;
  readonly limit?: string;
  readonly pollTimeoutSeconds?: string;
  readonly lookbackWindowDays?: string;
}

/** DataHub's ExternalEventsResponse; `warning` is Almanac's, set when the offset asked for had been pruned. */
export interface PollResponse {
  readonly offsetId: string;
  readonly count: number;
  readonly events: ReadonlyArray<{ readonly contentType: 'application/json'; readonly value: string }>;
  readonly warning?: string;
}

function integer(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^-?\d{1,9}$/.test(raw)) throw badRequest(`Parameter '${name}' must be an integer, got ${JSON.stringify(raw)}`);
  const n = Number(raw);
  if (n < min) throw badRequest(`Parameter '${name}' must be at least ${min}, got ${n}`);
  return n;
}

/** Where a consumer resumes: the entry at `offset`, from its `index`th event (an entry may be served as several). */
export interface Position {
  readonly offset: number;
  readonly index: number;
}

/**
 * DataHub's offset id: base64 of a JSON map from `<topic>-<partition>` to the next offset to read (one partition
 * here). Almanac adds `<topic>-0/event` when the next event is not an entry's first (PlatformEvent_v1 serves a change
 * log's Entity Change Events at its offset), so an id without it means the entry's first event.
 */
export const encodeOffsetId = (topic: Topic, next: Position): string =>
  Buffer.from(JSON.stringify({ [`${topic}-0`]: next.offset, ...(next.index > 0 ? { [`${topic}-0/event`]: next.index } : {}) })).toString('base64');

const isOffset = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

export function decodeOffsetId(topic: Topic, raw: string): Position {
  const bad = (why: string) => badRequest(`Parameter 'offsetId' is not an offset of ${topic} (${why}): ${JSON.stringify(raw.slice(0, 100))}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64').toString('utf8'));
  } catch {
    throw bad('not base64 of a JSON object');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw bad('not base64 of a JSON object');
  const value = (parsed as Record<string, unknown>)[`${topic}-0`];
  const index = (parsed as Record<string, unknown>)[`${topic}-0/event`] ?? 0;
  if (value === undefined) throw bad(`no ${topic}-0 in it`);
  if (!isOffset(value)) throw bad('its offset is not a non-negative integer');
  if (!isOffset(index)) throw bad('its event index is not a non-negative integer');
  return { offset: value, index };
}

/**
 * DataHub's events API over the change log (GET /openapi/v1/events/poll). Unlike DataHub's Kafka-backed poll, which
 * waits until `limit` events or the timeout, a poll answers as soon as it has any event: the wait is for the first.
 */
export class EventPoll {
  constructor(private readonly ports: Pick<Parts, 'changeEvents'>) {}

  /** `authorize` refuses a caller who may not read the topic; it runs once the parameters are known to be good. */
  async poll(query: PollQuery, authorize: (topic: Topic) => Promise<void>, now = Date.now()): Promise<PollResponse> {
    const topicName = query.topic;
    if (topicName === undefined || topicName === '') throw badRequest(`Parameter 'topic' is required; it takes ${TOPICS.join(', ')}`);
    if (!isTopic(topicName)) throw badRequest(`Parameter 'topic': unknown topic ${JSON.stringify(topicName)}; it takes ${TOPICS.join(', ')}`);
    const topic = topicName;
    const limit = Math.min(integer('limit', query.limit, 1) ?? DEFAULT_LIMIT, MAX_LIMIT);
    const timeoutSeconds = Math.min(
      integer('pollTimeoutSeconds', query.pollTimeoutSeconds, 0) ?? DEFAULT_POLL_TIMEOUT_SECONDS,
      MAX_POLL_TIMEOUT_SECONDS,
    );
    const lookbackDays = integer('lookbackWindowDays', query.lookbackWindowDays, 0);
    const asked = query.offsetId === undefined || query.offsetId === '' ? undefined : decodeOffsetId(topic, query.offsetId);
    let index = asked?.index ?? 0;
    await authorize(topic);

    const log = this.ports.changeEvents;
    const bounds = await log.eventLogBounds();
    let from: number;
    let warning: string | undefined;
    if (asked !== undefined) {
      from = asked.offset;
      if (bounds.oldest !== null && asked.offset < bounds.oldest) {
        from = bounds.oldest;
        index = 0;
        warning = `Offset ${asked.offset} is older than the change log keeps (ALMANAC_EVENT_RETENTION_DAYS): resumed from the oldest kept entry, offset ${from}`;
      } else if (bounds.oldest === null && asked.offset < bounds.next) {
        from = bounds.next;
        index = 0;
        warning = `Offset ${asked.offset} is older than the change log keeps (ALMANAC_EVENT_RETENTION_DAYS): the log is empty, resumed from offset ${from}`;
      }
    } else if (lookbackDays !== undefined && lookbackDays > 0) {
      // As DataHub: the first entry in the window, else the earliest kept, else the end.
      from = (await log.eventLogOffsetSince(now - lookbackDays * DAY_MILLIS)) ?? bounds.oldest ?? bounds.next;
    } else {
      from = bounds.next;
    }

    const deadline = Date.now() + timeoutSeconds * 1000;
    for (;;) {
      const generation = await log.eventLogGeneration();
      const entries = await log.readEventLog(topic, from, limit, index);
      const remaining = deadline - Date.now();
      if (entries.length > 0 || remaining <= 0) {
        const last = entries[entries.length - 1];
        const next =
          last === undefined
            ? { offset: from, index }
            : last.index + 1 < last.of
              ? { offset: last.offset, index: last.index + 1 }
              : { offset: last.offset + 1, index: 0 };
        return {
          offsetId: encodeOffsetId(topic, next),
          count: entries.length,
          events: entries.map((e) => ({ contentType: 'application/json' as const, value: e.value })),
          ...(warning !== undefined ? { warning } : {}),
        };
      }
      await log.waitForEventLog(generation, remaining);
    }
  }
}
