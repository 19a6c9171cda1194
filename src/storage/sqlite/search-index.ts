import type Database from 'better-sqlite3';
import { fromJsonTextRequired } from '../json.ts';
import type { SearchIndexBuild } from '../ports/search.ts';
import type { SearchEntry } from '../ports/search-index.ts';
import { buildState, COMPLETE, firstCursor, nextCursor, SEARCH_BUILD_KEY, type BuildCursor } from '../search-build.ts';
import { FACET_FIELD_SET } from '../search-facet-fields.ts';
import { searchTextRows } from '../search-rows.ts';
import { isRemovedRow, keysOf, DOC_KEY_FIELDS, DOC_VALUE_ROWS, VALUE_KEY_FIELDS } from '../search-keys.ts';
import type { AspectIndexer } from '../store.ts';
import { NAME_FIELD_LIST } from '../search-sql.ts';
import { facetList } from './facet-tally.ts';
import { docNames } from './search-docs.ts';

const NAME_FIELD_SET: ReadonlySet<string> = new Set(NAME_FIELD_LIST);

/**
 * A row of this field that comes or goes changes the document's keys or its row: the soft-deletion flag, a facet
 * value, a value of VALUE_KEY_FIELDS or a name.
 */
const onDocument = (field: string): boolean => DOC_KEY_FIELDS.has(field) || NAME_FIELD_SET.has(field);

/** A text row's id is its document's number times SLOTS plus its slot's (migration 24). */
export const SLOTS = 65536;

/** The rows a document's keys and its row's names, flag and facet values come from (writeKeys). */
const DOC_ROWS_JSON = JSON.stringify([...DOC_VALUE_ROWS, ...NAME_FIELD_SET, 'removed']);

/** Rows per INSERT statement: each count is one cached statement. */
const ROWS_PER_INSERT = 32;

const insertTexts = new Map<string, string>();

/** `<insert> VALUES (?, ...), ...` for `rows` rows of `width` values. */
function insertText(insert: string, width: number, rows: number): string {
  const key = `${insert}/${rows}`;
  let text = insertTexts.get(key);
  if (text === undefined) {
    const row = `(${Array.from({ length: width }, () => '?').join(', ')})`;
    text = `${insert} VALUES ${Array.from({ length: rows }, () => row).join(', ')}`;
    insertTexts.set(key, text);
  }
  return text;
}

/**
 * The search index of the SQLite adapter: what each aspect's latest value contributes to its entity's document, in
 * `search_fields` (exact values) and `search_text` (words, indexed by the FTS5 table `search_words`; each row's id
 * says whose words they are and in which field, migration 24). Written inside
 * the transaction that writes the aspect (the relationship part calls it where it indexes the same value). A database
 * that held aspects before the index gets them indexed by a build in batches (`continueBuild`), resumable after a crash.
 */
export class SqliteSearchIndex {
  constructor(
    private readonly db: Database.Database,
    private readonly sql: (text: string) => Database.Statement,
    private readonly indexer: AspectIndexer,
  ) {}

  /**
   * Adds what one aspect value contributes; the caller has forgotten the aspect's previous entries. search_fields is
   * keyed by (urn, field, value, aspect) (migration 22): a value the aspect gives one field twice is one row.
   */
  write(entityType: string, urn: string, aspect: string, entries: readonly SearchEntry[]): void {
    if (entries.length === 0) return;
    const fields = entries.map((e) => [urn, aspect, e.field, e.value, e.folded, e.number ?? null, e.isName ? 1 : 0]);
    this.insertRows('INSERT OR IGNORE INTO search_fields (urn, aspect, field, value, folded, num, is_name)', 7, fields);
    this.rememberValues(entries);
    const doc = this.docFor(entityType, urn);
    this.insertRows('INSERT INTO search_text (id, words)', 2, [...this.textRows(doc, aspect, entries)]);
    if (entries.some((e) => onDocument(e.field))) this.refreshKeys(doc, urn);
  }

  /**
   * The values of VALUE_KEY_FIELDS among `entries` in search_key_values (migration 27), the distinct values a filter
   * reads: a value known already is read, not written, unless its folded form or number changed (a release that
   * folds differently rebuilds the index through `replace`).
   */
  private rememberValues(entries: Iterable<SearchEntry>): void {
    const rows: unknown[][] = [];
    for (const e of entries) {
      if (!VALUE_KEY_FIELDS.has(e.field)) continue;
      // Within a batch, a value written once is not written again (datasets share their column names). The lengths
      // keep two rows from one key, whatever characters their texts hold.
      if (this.remembered !== undefined) {
        const key = `${e.field}\u0000${e.value.length}:${e.value}${e.folded.length}:${e.folded}${e.number ?? ''}`;
        if (this.remembered.has(key)) continue;
        this.remembered.add(key);
      }
      rows.push([e.field, e.value, e.folded, e.number ?? null]);
    }
    this.insertRows(
      'INSERT INTO search_key_values (field, value, folded, num)',
      4,
      rows,
      ' ON CONFLICT (field, value) DO UPDATE SET folded = excluded.folded, num = excluded.num WHERE folded IS NOT excluded.folded OR num IS NOT excluded.num',
    );
  }

  /**
   * Replaces what the aspect indexed with `entries`, writing only what differs: a value row is deleted or inserted
   * only when the value came or went, a text row only when its words changed. An update that changes one column of
   * a schema rewrites one value and one text row, not all of them; the rows of a value written again unchanged are
   * read, never written.
   */
  replace(entityType: string, urn: string, aspect: string, entries: readonly SearchEntry[]): void {
    const oldFields = this.sql('SELECT field, value, folded, num, is_name FROM search_fields WHERE urn = ? AND aspect = ?').all(
      urn,
      aspect,
    ) as Array<{
      field: string;
      value: string;
      folded: string;
      num: number | null;
      is_name: number;
    }>;
    const fieldKey = (field: string, value: string, folded: string, num: number | null, isName: number) =>
      JSON.stringify([field, value, folded, num, isName]);
    const wanted = new Map(entries.map((e) => [fieldKey(e.field, e.value, e.folded, e.number ?? null, e.isName ? 1 : 0), e]));
    // Whether the document's keys (storage/search-keys.ts) or its row's names, flag and facet values
    // (sqlite/search-docs.ts) change: a facet value, a value of VALUE_KEY_FIELDS, a name or the soft-deletion flag
    // came or went.
    let keysChanged = false;
    for (const r of oldFields) {
      if (wanted.delete(fieldKey(r.field, r.value, r.folded, r.num, r.is_name))) continue;
      this.sql('DELETE FROM search_fields WHERE urn = ? AND field = ? AND value = ? AND aspect = ?').run(urn, r.field, r.value, aspect);
      if (onDocument(r.field)) keysChanged = true;
    }
    if ([...wanted.values()].some((e) => onDocument(e.field))) keysChanged = true;
    this.rememberValues(wanted.values());
    // A value whose folded form, number or name flag changed was deleted above: the insert never meets its key.
    const fields = [...wanted.values()].map((e) => [urn, aspect, e.field, e.value, e.folded, e.number ?? null, e.isName ? 1 : 0]);
    this.insertRows('INSERT OR IGNORE INTO search_fields (urn, aspect, field, value, folded, num, is_name)', 7, fields);

    const doc = entries.length > 0 ? this.docFor(entityType, urn) : this.docOf(urn);
    if (doc === undefined) return;
    const texts = this.textRows(doc, aspect, entries);
    for (const old of this.aspectTexts(doc, aspect)) {
      // The id names the field, its boost and flag: the same id with the same words is the same row.
      if (texts.get(old.id) === old.words) texts.delete(old.id);
      else this.sql('DELETE FROM search_text WHERE id = ?').run(old.id);
    }
    this.insertRows('INSERT INTO search_text (id, words)', 2, [...texts]);
    if (keysChanged) this.refreshKeys(doc, urn);
  }

  /** Documents whose keys are written at the end of the batch under way (withKeysOnce), by number, with their urns. */
  private pendingKeys: Map<number, string> | undefined;
  /** The distinct values the batch under way has written to search_key_values (rememberValues), by row. */
  private remembered: Set<string> | undefined;

  /**
   * Runs `work` inside the caller's transaction with each document's keys written once, at its end, however many of
   * its aspects it wrote (a dataset's key, tags and owners: one keys row, not three), and each distinct value of
   * VALUE_KEY_FIELDS written once. If `work` throws, nothing is written: the transaction rolls back anyway.
   */
  withKeysOnce<T>(work: () => T): T {
    if (this.pendingKeys !== undefined) return work();
    const pending = new Map<number, string>();
    this.pendingKeys = pending;
    this.remembered = new Set();
    try {
      const out = work();
      for (const [doc, urn] of pending) this.writeKeys(doc, urn);
      return out;
    } finally {
      this.pendingKeys = undefined;
      this.remembered = undefined;
    }
  }

  /** The document's keys change: written now, or at the end of the batch under way. */
  private refreshKeys(doc: number, urn: string): void {
    if (this.pendingKeys !== undefined) this.pendingKeys.set(doc, urn);
    else this.writeKeys(doc, urn);
  }

  /**
   * Writes the document's keys row again (storage/search-keys.ts) from its values of the key fields, its
   * soft-deletion flag as they now stand (every aspect's, not only the one written) and its entity type; and its
   * document row's flag, names and facet value numbers (sqlite/search-docs.ts) where they changed.
   */
  private writeKeys(doc: number, urn: string): void {
    const rows = this.sql('SELECT field, value, folded FROM search_fields WHERE urn = ? AND field IN (SELECT value FROM json_each(?))').all(
      urn,
      DOC_ROWS_JSON,
    ) as Array<{ field: string; value: string; folded: string }>;
    const values = rows.filter((r) => !NAME_FIELD_SET.has(r.field) && r.field !== 'removed');
    const names = docNames(rows.filter((r) => NAME_FIELD_SET.has(r.field)).map((r) => r.folded));
    const removed = rows.some(isRemovedRow);
    const facets = facetList(values.filter((r) => FACET_FIELD_SET.has(r.field)).map((r) => this.facetValue(r.field, r.value)));
    const entityType = this.sql('SELECT entity_type FROM search_docs WHERE id = ?').pluck().get(doc) as string | undefined;
    // A document forgotten in this batch after its keys were due keeps none.
    const keys = entityType === undefined ? [] : keysOf(values, removed, entityType);
    this.sql('DELETE FROM search_keys WHERE rowid = ?').run(doc);
    if (keys.length > 0) this.sql('INSERT INTO search_keys (rowid, keys) VALUES (?, ?)').run(doc, keys.join(' '));
    this.sql(
      `UPDATE search_docs SET removed = @removed, names = @names, facets = @facets
        WHERE id = @doc AND (removed IS NOT @removed OR names IS NOT @names OR facets IS NOT @facets)`,
    ).run({ removed: removed ? 1 : 0, names, facets, doc });
  }

  /**
   * The aspect's text rows as `id -> words`: one per field with words, its id the entity's document number times
   * SLOTS plus the slot of (aspect, field, boost, flag) (migration 24), both numbered on first use.
   */
  private textRows(doc: number, aspect: string, entries: readonly SearchEntry[]): Map<number, string> {
    const out = new Map<number, string>();
    for (const t of searchTextRows(entries)) out.set(doc * SLOTS + this.slotOf(aspect, t.field, t.boost, t.byDefault), t.words);
    return out;
  }

  /** The number of a facet field's value (search_facet_values), numbered on first use. */
  private facetValue(field: string, value: string): number {
    const found = this.sql('SELECT id FROM search_facet_values WHERE field = ? AND value = ?').pluck().get(field, value) as number | undefined;
    return found ?? (this.sql('INSERT INTO search_facet_values (field, value) VALUES (?, ?) RETURNING id').pluck().get(field, value) as number);
  }

  private docOf(urn: string): number | undefined {
    return this.sql('SELECT id FROM search_docs WHERE urn = ?').pluck().get(urn) as number | undefined;
  }

  /** The entity's document number (migrations 24 and 25), numbered on its first indexed value. */
  private docFor(entityType: string, urn: string): number {
    return (
      this.docOf(urn) ?? (this.sql('INSERT INTO search_docs (urn, entity_type) VALUES (?, ?) RETURNING id').pluck().get(urn, entityType) as number)
    );
  }

  /** The slot's number, from the table (not a cache: a slot numbered in a transaction that rolls back is gone). */
  private slotOf(aspect: string, field: string, boost: number, byDefault: boolean): number {
    const flag = byDefault ? 1 : 0;
    const found = this.sql('SELECT id FROM search_slots WHERE aspect = ? AND field = ? AND boost = ? AND by_default = ?').get(
      aspect,
      field,
      boost,
      flag,
    ) as { id: number } | undefined;
    if (found !== undefined) return found.id;
    const { id } = this.sql('INSERT INTO search_slots (aspect, field, boost, by_default) VALUES (?, ?, ?, ?) RETURNING id').get(
      aspect,
      field,
      boost,
      flag,
    ) as {
      id: number;
    };
    if (id >= SLOTS) throw new Error(`search_slots: more than ${SLOTS - 1} (aspect, field) slots`);
    return id;
  }

  /** The text rows one aspect of the entity holds: its document's id range, the aspect's slots. */
  private aspectTexts(doc: number, aspect: string): Array<{ id: number; words: string }> {
    return this.sql(
      `SELECT id, words FROM search_text WHERE id >= ? AND id < ? AND (id % ${SLOTS}) IN (SELECT id FROM search_slots WHERE aspect = ?)`,
    ).all(doc * SLOTS, (doc + 1) * SLOTS, aspect) as Array<{ id: number; words: string }>;
  }

  /** Rows as multi-row INSERTs of up to ROWS_PER_INSERT rows (then `after`): one statement call where a row each cost one. */
  private insertRows(insert: string, width: number, rows: ReadonlyArray<readonly unknown[]>, after = ''): void {
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      const chunk = rows.slice(i, i + ROWS_PER_INSERT);
      this.sql(insertText(insert, width, chunk.length) + after).run(...chunk.flat());
    }
  }

  forgetAspect(urn: string, aspect: string): void {
    this.sql('DELETE FROM search_fields WHERE urn = ? AND aspect = ?').run(urn, aspect);
    const doc = this.docOf(urn);
    if (doc === undefined) return;
    this.sql(`DELETE FROM search_text WHERE id >= ? AND id < ? AND (id % ${SLOTS}) IN (SELECT id FROM search_slots WHERE aspect = ?)`).run(
      doc * SLOTS,
      (doc + 1) * SLOTS,
      aspect,
    );
    this.refreshKeys(doc, urn);
  }

  forgetEntity(urn: string): void {
    this.sql('DELETE FROM search_fields WHERE urn = ?').run(urn);
    const doc = this.docOf(urn);
    if (doc === undefined) return;
    this.sql('DELETE FROM search_text WHERE id >= ? AND id < ?').run(doc * SLOTS, (doc + 1) * SLOTS);
    this.sql('DELETE FROM search_keys WHERE rowid = ?').run(doc);
    this.sql('DELETE FROM search_docs WHERE id = ?').run(doc);
  }

  /** Where the build of the index over stored aspects stands. */
  buildState(): SearchIndexBuild {
    const row = this.sql('SELECT value FROM settings WHERE key = ?').get(SEARCH_BUILD_KEY) as { value: string } | undefined;
    return buildState(row?.value);
  }

  /** Starts the build over from the first stored aspect; call inside a write transaction (the migration's, or one of its own). */
  restartBuild(): SearchIndexBuild {
    const { n } = this.sql(`SELECT count(*) AS n FROM aspects WHERE version = 0 AND aspect IN (SELECT value FROM json_each(?))`).get(
      JSON.stringify([...this.indexer.aspects]),
    ) as { n: number };
    if (n === 0) {
      this.sql('DELETE FROM settings WHERE key = ?').run(SEARCH_BUILD_KEY);
      return COMPLETE;
    }
    this.sql('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)').run(SEARCH_BUILD_KEY, JSON.stringify(firstCursor(n)));
    return buildState(JSON.stringify(firstCursor(n)));
  }

  /** Indexes the next `size` stored aspects after the build's cursor and moves it, in one transaction. */
  continueBuild(size: number): SearchIndexBuild {
    return this.db
      .transaction((): SearchIndexBuild => {
        const row = this.sql('SELECT value FROM settings WHERE key = ?').get(SEARCH_BUILD_KEY) as { value: string } | undefined;
        if (row === undefined) return COMPLETE;
        const cursor = JSON.parse(row.value) as BuildCursor;
        const rows = this.sql(
          `SELECT urn, entity_type, aspect, metadata FROM aspects
            WHERE version = 0 AND aspect IN (SELECT value FROM json_each(?)) AND (urn, aspect) > (?, ?)
            ORDER BY urn, aspect LIMIT ?`,
        ).all(JSON.stringify([...this.indexer.aspects]), cursor.urn, cursor.aspect, size) as Array<{
          urn: string;
          entity_type: string;
          aspect: string;
          metadata: string;
        }>;
        // Each document's keys and each distinct value written once for the batch.
        this.withKeysOnce(() => {
          for (const r of rows) {
            this.replace(
              r.entity_type,
              r.urn,
              r.aspect,
              this.indexer.index(r.entity_type, r.urn, r.aspect, fromJsonTextRequired(r.metadata)).search ?? [],
            );
          }
        });
        const next = nextCursor(cursor, size, rows);
        if (next === undefined) {
          this.sql('DELETE FROM settings WHERE key = ?').run(SEARCH_BUILD_KEY);
          return { complete: true, done: cursor.done + rows.length, total: cursor.total };
        }
        this.sql('UPDATE settings SET value = ? WHERE key = ?').run(JSON.stringify(next), SEARCH_BUILD_KEY);
        return { complete: false, done: next.done, total: next.total };
      })
      .immediate();
  }
}
