import type { ReadParts } from '../storage/store.ts';

const MAX_ENTRIES = 10_000;

/**
 * What authenticating a request reads from the database (a token's stored record and its actor's state, a session's
 * user state, an actor's role and the policies' counter), kept by this process while the store's auth change mark
 * (`authChangeMark`: a counter on SQLite, notifications on PostgreSQL) stays the same. Any change that could alter
 * an answer moves the mark, and the next lookup in every process starts afresh; with no mark to go by, every
 * lookup reads. Only answers that let a request through are kept, so a refusal is always read again. One cache
 * serves the process (openServices gives it to the TokenService and the Authorizer).
 */
export class AuthStateCache {
  private keptUnder: number | undefined;
  private readonly entries = new Map<string, Promise<unknown>>();

  constructor(private readonly ports: Pick<ReadParts, 'identity'>) {}

  /**
   * The store's mark now: read once per request (on PostgreSQL it waits for the listening connection's barrier) and
   * given to every lookup of that request, which the Principal carries from authentication to authorization.
   */
  mark(): Promise<number | undefined> {
    return this.ports.identity.authChangeMark();
  }

  /** `load`'s answer for `key`, kept under `mark` (read before the load: a change committed while it runs moves the mark past it). */
  async get<T>(mark: number | undefined, key: string, load: () => Promise<T>, keep: (value: T) => boolean = () => true): Promise<T> {
    if (mark !== this.keptUnder) {
      this.entries.clear();
      this.keptUnder = mark;
    }
    if (mark === undefined) return load();
    const hit = this.entries.get(key) as Promise<T> | undefined;
    if (hit) return hit;
    const loading = load();
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, loading);
    loading.then(
      (value) => {
        if (!keep(value) && this.entries.get(key) === loading) this.entries.delete(key);
      },
      () => {
        if (this.entries.get(key) === loading) this.entries.delete(key);
      },
    );
    return loading;
  }
}
