import type { StoredAspect, ReadParts } from '../../storage/store.ts';
import { entitySpec } from '../registry/index.ts';
import { parseUrn } from '../urn.ts';
import type { AspectDiffer } from './categories.ts';
import { differsFor } from './categories.ts';
import type { ChangeCategory, ChangeTransaction } from './change-event.ts';
import { highestChange } from './change-event.ts';
import { jsonDiff } from './json-diff.ts';

/**
 * The versions of one aspect a request reads at most, newest first. DataHub's retention keeps 20 versions of an
 * aspect by default and its timeline reads what is kept; Almanac keeps every version, so it bounds the read here:
 * changes older than the newest 100 versions of an aspect are not reported.
 */
export const MAX_VERSIONS_PER_ASPECT = 100;

/** DataHub's default window when no start time is given: the week before the end time. */
const DEFAULT_LOOKBACK_MILLIS = 7 * 24 * 60 * 60 * 1000;

export interface TimelineQuery {
  readonly urn: string;
  readonly categories: readonly ChangeCategory[];
  /** -1 (DataHub's default): a week before the end time. */
  readonly startTime: number;
  /** 0 (DataHub's default): now. */
  readonly endTime: number;
  readonly raw: boolean;
}

/** One value of an aspect in time order; `undefined` value: the aspect did not exist before (DataHub's sentinel). */
interface Step {
  readonly before: StoredAspect | undefined;
  readonly after: StoredAspect;
}

/**
 * DataHub's timeline (TimelineServiceImpl): the versions of the categories' aspects written inside the window are
 * each diffed against the version before them (the aspect's absence before its first version), the resulting
 * transactions grouped by the instant they were written, and each group given a semantic version that its
 * highest change bumps, starting from 0.0.0 at the window's first group.
 */
export class TimelineService {
  constructor(
    private readonly ports: Pick<ReadParts, 'aspects'>,
    private readonly clock: () => number = Date.now,
  ) {}

  async timeline(query: TimelineQuery): Promise<ChangeTransaction[]> {
    const entityType = entitySpec(parseUrn(query.urn).entityType).name;
    const endTime = query.endTime === 0 ? this.clock() : query.endTime;
    const startTime = query.startTime === -1 ? endTime - DEFAULT_LOOKBACK_MILLIS : query.startTime;
    const byTimestamp = new Map<number, ChangeTransaction[]>();
    const read = new Map<string, StoredAspect[]>();
    for (const [aspect, differs] of differsFor(entityType, query.categories)) {
      const history = (await this.ports.aspects.getAspectHistory(query.urn, aspect, MAX_VERSIONS_PER_ASPECT)).reverse();
      const steps = stepsInWindow(history, startTime, endTime);
      read.set(aspect, [...new Set(steps.flatMap((s) => (s.before ? [s.before, s.after] : [s.after])))]);
      for (const step of steps) {
        for (const transaction of diffStep(step, differs, query.urn, query.raw)) {
          byTimestamp.set(transaction.timestamp, [...(byTimestamp.get(transaction.timestamp) ?? []), transaction]);
        }
      }
    }
    const timestamps = [...byTimestamp.keys()].sort((a, b) => a - b);
    assignSemanticVersions(timestamps.map((t) => byTimestamp.get(t)!));
    return timestamps.map((t) => combine(byTimestamp.get(t)!, versionStamp(read, t)));
  }
}

/**
 * `history` oldest first. The versions inside the window, each with its predecessor. The window is DataHub's range
 * read (Ebean's inRange): the start inclusive, the end exclusive.
 */
function stepsInWindow(history: readonly StoredAspect[], startTime: number, endTime: number): Step[] {
  const first = history.findIndex((v) => v.createdOn >= startTime && v.createdOn < endTime);
  if (first < 0) return [];
  // The oldest version read is the aspect's first only if the read was not cut short by the bound.
  const complete = history.length < MAX_VERSIONS_PER_ASPECT || history[0]!.version === 1;
  const steps: Step[] = [];
  for (let i = first; i < history.length && history[i]!.createdOn < endTime; i++) {
    if (i === 0 && !complete) continue;
    steps.push({ before: i === 0 ? undefined : history[i - 1], after: history[i]! });
  }
  return steps;
}

function diffStep(step: Step, differs: readonly AspectDiffer[], urn: string, raw: boolean): ChangeTransaction[] {
  const out: ChangeTransaction[] = [];
  for (const differ of differs) {
    const changeEvents = differ.diff(step.before?.value, step.after.value, urn);
    if (changeEvents.length === 0) continue;
    out.push({
      timestamp: step.after.createdOn,
      actor: step.after.createdBy,
      semVer: '',
      semVerChange: highestChange(changeEvents.map((e) => e.semVerChange)),
      changeEvents,
      ...(raw && { rawDiff: jsonDiff(step.before?.value ?? {}, step.after.value) }),
      versionStamp: '',
    });
  }
  return out;
}

function assignSemanticVersions(groups: readonly ChangeTransaction[][]): void {
  let version: [number, number, number] | undefined;
  for (const group of groups) {
    const change = highestChange(group.map((t) => t.semVerChange));
    if (!version) version = [0, 0, 0];
    else if (change === 'MAJOR') version = [version[0] + 1, 0, 0];
    else if (change === 'MINOR') version = [version[0], version[1] + 1, 0];
    else if (change === 'PATCH') version = [version[0], version[1], version[2] + 1];
    for (const t of group) t.semVer = `${version.join('.')}-computed`;
  }
}

/** The transactions of one instant as one: their events in order, the highest change, the first's actor and raw diff. */
function combine(group: readonly ChangeTransaction[], stamp: string): ChangeTransaction {
  const [first, ...rest] = group as [ChangeTransaction, ...ChangeTransaction[]];
  return {
    ...first,
    semVerChange: highestChange(group.map((t) => t.semVerChange)),
    changeEvents: [...first.changeEvents, ...rest.flatMap((t) => t.changeEvents)],
    versionStamp: stamp,
  };
}

/** DataHub's version stamp: for each aspect read, the version current at that instant, as `aspect:version;...`. */
function versionStamp(read: ReadonlyMap<string, readonly StoredAspect[]>, timestamp: number): string {
  const parts: string[] = [];
  for (const aspect of [...read.keys()].sort()) {
    const current = read
      .get(aspect)!
      .filter((v) => v.createdOn <= timestamp)
      .at(-1);
    if (current) parts.push(`${aspect}:${current.version}`);
  }
  return parts.join(';');
}
