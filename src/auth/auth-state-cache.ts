import type { Store } from '../storage/store.ts';

const MAX_ENTRIES = 10_000;

/**
 * What authenticating a request reads from the database (a token's stored record and its actor's state, a session's
 * user state, an actor's role and the policies' counter), kept by this process while the store's auth change mark
 * (`authChangeMark`: a counter on SQLite, notifications on PostgreSQL) stays the same. Any change that could alter
 * an answer moves the mark, and the next lookup in every process starts afresh; with no mark to go by, every
 * lookup reads. Only answers that let a request through are kept, so a refusal is always read again.
 */
export class AuthStateCache {
  private mark: number | undefined;
  private readonly entries = new Map<string, Promise<unknown>>();

  constructor(private readonly store: Pick<Store, 'authChangeMark'>) {}

  async get<T>(key: string, load: () => Promise<T>, keep: (value: T) => boolean = () => true): Promise<T> {
    // Read before the load: a change committed while it runs moves the mark past the one the answer is kept under.
    const mark = await this.store.authChangeMark();
    if (mark !== this.mark) {
      this.entries.clear();
      this.mark = mark;
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
