/**
 * What the one records implementation needs of a SQL database. DuckDB and PostgreSQL differ in
 * placeholders, connections and locking, and each answers this interface its own way; the SQL
 * itself is the same on both.
 */
import type { Sql } from '../sql.ts';
import type { Row } from '../sql-rows.ts';

export interface RecordDb {
  /** The rows a SELECT answers. */
  read(statement: Sql): Promise<Row[]>;
  /** Runs a statement that writes: the rows its RETURNING answers, and how many rows it changed. */
  write(statement: Sql): Promise<{ rows: Row[]; changed: number }>;
  /** Runs a script of the code's own (a migration): statements without values. */
  script(text: string): Promise<void>;
  /**
   * Inside a transaction, holds `key` until the transaction ends, so that another server's
   * transaction naming the same key waits for it (PostgreSQL's advisory locks). Nothing where
   * one writer already runs alone (DuckDB), or outside a transaction.
   */
  hold(...key: string[]): Promise<void>;
  /** Appended to a SELECT whose rows a transaction goes on to change: `FOR UPDATE` where rows can be locked, else nothing. */
  readonly lockRows: Sql;
}
