import { badRequest, type CatalogError } from '../errors.ts';
import { validateAspect } from '../registry/index.ts';
import { writeHookOf } from '../write-hooks.ts';
import { MissingEntities, type Json, type Parts, type WriteOp } from '../../storage/store.ts';

const DEFAULT_RUN_ID = 'no-run-id-provided';

/** One read-modify-write of one aspect of an existing entity. */
export interface AspectEdit {
  readonly urn: string;
  /** The registry name of the entity's type. */
  readonly entityType: string;
  readonly aspect: string;
  /** The new value from the current one (undefined when there is none); may throw to abort every edit. */
  readonly update: (current: Json | undefined) => Json;
}

/** DataHub's AuditStamp of a change the caller makes now. */
export const auditStampOf = (actor: string, now: number): Json => ({ time: now, actor });

/**
 * Applies curation edits through the one write path every ingest takes (versions, timeline, change events and the
 * search index follow from the write's outcome, in its transaction). All edits are one transaction: each runs on
 * the aspect's current value with its row locked, so two curators editing the same entity's tags lose neither
 * change; the result is validated against the registry before it is stored; and every entity named must still exist
 * when the transaction commits (a concurrent delete makes the whole batch fail, nothing written).
 */
export class AspectEdits {
  constructor(
    private readonly ports: Pick<Parts, 'aspects'>,
    private readonly clock: () => number = Date.now,
  ) {}

  now(): number {
    return this.clock();
  }

  /**
   * One aspect that must already hold a value (the entity's info, properties, ...), changed by `change` with the time
   * of the write; `missing` is the refusal when it holds none, or when the entity is gone.
   */
  async editExisting(
    target: Pick<AspectEdit, 'urn' | 'entityType' | 'aspect'>,
    actor: string,
    missing: () => CatalogError,
    change: (current: Json, now: number) => Json,
  ): Promise<void> {
    const now = this.now();
    const update = (current: Json | undefined) => {
      if (current === undefined) throw missing();
      return change(current, now);
    };
    await this.apply([{ ...target, update }], actor, now, () => missing().message);
  }

  async apply(edits: readonly AspectEdit[], actor: string, now: number, missing: (urn: string) => string): Promise<void> {
    if (edits.length === 0) return;
    // DataHub marks what its GraphQL mutations write as coming from the UI.
    const systemMetadata: Json = { runId: DEFAULT_RUN_ID, lastObserved: now, properties: { appSource: 'ui' } };
    const ops: WriteOp[] = merged(edits).map((e) => ({
      kind: 'aspect',
      entityType: e.entityType,
      urn: e.urn,
      aspect: e.aspect,
      value: {},
      systemMetadata,
      update: (current) => {
        const value = validateAspect(e.entityType, e.aspect, e.update(current));
        const hook = writeHookOf(e.aspect);
        return hook ? validateAspect(e.entityType, e.aspect, hook(value, current, e.urn)) : value;
      },
    }));
    try {
      await this.ports.aspects.write({ ops, actor, now, requireEntities: [...new Set(edits.map((e) => e.urn))] });
    } catch (e) {
      if (e instanceof MissingEntities) throw badRequest(missing(e.urns[0]!));
      throw e;
    }
  }
}

/** Edits of the same aspect of the same entity (two fields of one dataset) become one, applied in order: one version. */
function merged(edits: readonly AspectEdit[]): AspectEdit[] {
  const byAspect = new Map<string, AspectEdit>();
  for (const e of edits) {
    const key = `${e.urn}\u0000${e.aspect}`;
    const before = byAspect.get(key);
    byAspect.set(key, before ? { ...e, update: (current) => e.update(before.update(current)) } : e);
  }
  return [...byAspect.values()];
}
