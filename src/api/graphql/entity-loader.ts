import type { Catalog } from '../../catalog/catalog.ts';
import type { Json } from '../../storage/store.ts';

/** The latest values of the aspects asked for, by aspect name. */
export type EntityAspects = ReadonlyMap<string, Json>;

interface Pending {
  readonly urn: string;
  readonly aspects: readonly string[];
  resolve(value: EntityAspects | undefined): void;
  reject(e: unknown): void;
}

/**
 * Collects the entity reads one GraphQL request makes in the same tick (aliased
 * datasets, the schemaField entity of every field of a schema) into one store
 * call, and remembers answers for the rest of the request. Lives for one request.
 */
export class EntityLoader {
  private queue: Pending[] = [];
  private readonly answers = new Map<string, Promise<EntityAspects | undefined>>();

  constructor(private readonly catalog: Pick<Catalog, 'getEntities'>) {}

  /** The entity's named aspects, or undefined when the entity does not exist. */
  load(urn: string, aspects: readonly string[]): Promise<EntityAspects | undefined> {
    const key = `${urn}\u0000${aspects.join('\u0000')}`;
    let answer = this.answers.get(key);
    if (!answer) {
      answer = new Promise((resolve, reject) => {
        if (this.queue.length === 0) process.nextTick(() => void this.flush());
        this.queue.push({ urn, aspects, resolve, reject });
      });
      this.answers.set(key, answer);
    }
    return answer;
  }

  private async flush(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    const urns = [...new Set(batch.map((p) => p.urn))];
    const aspects = [...new Set(batch.flatMap((p) => p.aspects))];
    try {
      const found = await this.catalog.getEntities(urns, aspects);
      for (const p of batch) {
        const stored = found.get(p.urn);
        p.resolve(stored && new Map(stored.filter((a) => p.aspects.includes(a.aspect)).map((a) => [a.aspect, a.value])));
      }
    } catch (e) {
      for (const p of batch) p.reject(e);
    }
  }
}
