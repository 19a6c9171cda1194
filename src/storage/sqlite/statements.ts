import type Database from 'better-sqlite3';

/** Prepared statements by SQL text: preparing is the costly part of a small query. */
export class StatementCache {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  get(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /** Needed after DDL drops a table that a cached statement reads. */
  clear(): void {
    this.statements.clear();
  }
}

/** Shared SQL names parameters `:name`; better-sqlite3 reads `@name`. */
export const bySqliteNames = (sql: string): string => sql.replace(/:(\w+)/g, '@$1');
