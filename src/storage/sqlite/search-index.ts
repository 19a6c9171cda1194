import type Database from 'better-sqlite3';
import { fromJsonTextRequired } from '../json.ts';
import type { SearchEntry } from '../ports/search-index.ts';
import { searchTextRows } from '../search-rows.ts';
import type { AspectIndexer } from '../store.ts';

/**
 * The search index of the SQLite adapter: what each aspect's latest value contributes to its entity's document, in
 * `search_fields` (exact values) and `search_text` (words, indexed by the FTS5 table `search_words`). Written inside
 * the transaction that writes the aspect (the relationship part calls it where it indexes the same value).
 */
export class SqliteSearchIndex {
  constructor(private readonly sql: (text: string) => Database.Statement) {}

  /** Adds what one aspect value contributes; the caller has forgotten the aspect's previous entries. */
  write(urn: string, aspect: string, entries: readonly SearchEntry[]): void {
    if (entries.length === 0) return;
    const field = this.sql('INSERT INTO search_fields (urn, aspect, field, value, folded, num, is_name) VALUES (?, ?, ?, ?, ?, ?, ?)');
    for (const e of entries) field.run(urn, aspect, e.field, e.value, e.folded, e.number ?? null, e.isName ? 1 : 0);
    const text = this.sql('INSERT INTO search_text (urn, aspect, field, boost, by_default, words) VALUES (?, ?, ?, ?, ?, ?)');
    for (const t of searchTextRows(entries)) text.run(urn, aspect, t.field, t.boost, t.byDefault ? 1 : 0, t.words);
  }

  forgetAspect(urn: string, aspect: string): void {
    this.sql('DELETE FROM search_fields WHERE urn = ? AND aspect = ?').run(urn, aspect);
    this.sql('DELETE FROM search_text WHERE urn = ? AND aspect = ?').run(urn, aspect);
  }

  forgetEntity(urn: string): void {
    this.sql('DELETE FROM search_fields WHERE urn = ?').run(urn);
    this.sql('DELETE FROM search_text WHERE urn = ?').run(urn);
  }

  /** Indexes every stored latest aspect value; run once, by the migration that creates the tables. */
  backfill(db: Database.Database, indexer: AspectIndexer): void {
    const page = db.prepare(
      `SELECT urn, entity_type, aspect, metadata FROM aspects
        WHERE version = 0 AND aspect IN (SELECT value FROM json_each(?)) AND (urn, aspect) > (?, ?)
        ORDER BY urn, aspect LIMIT 1000`,
    );
    const aspects = JSON.stringify([...indexer.aspects]);
    let after = ['', ''];
    for (;;) {
      const rows = page.all(aspects, ...after) as Array<{ urn: string; entity_type: string; aspect: string; metadata: string }>;
      for (const r of rows) {
        this.write(r.urn, r.aspect, indexer.index(r.entity_type, r.urn, r.aspect, fromJsonTextRequired(r.metadata)).search ?? []);
      }
      if (rows.length < 1000) return;
      after = [rows.at(-1)!.urn, rows.at(-1)!.aspect];
    }
  }
}
