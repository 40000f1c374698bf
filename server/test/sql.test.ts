/**
 * Typed SQL on its own: every value is a parameter, numbers included; fragments nest with their
 * values in order; names are checked; and the literals for ClickHouse 18.16 quote what a hostile
 * text holds. DuckDB runs the rendered queries, so the parameters are seen to arrive as sent.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { createClient } from '@clickhouse/client';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { inlined, literal } from '../src/store/telemetry/clickhouse/literals.ts';
import { asLiterals, asParameters, bindFor, bindOf, rowsOf } from '../src/store/telemetry/clickhouse/bind.ts';
import { empty, forClickHouse, forDuckDb, forPostgres, identifier, join, sql } from '../src/store/sql.ts';

const HOSTILE = ["it's", 'back\\slash', 'nul\0byte', "'); DROP TABLE x; --", 'lone \ud800 surrogate', '? and $1 and {p0:String}'];

test('every value is a parameter, numbers included, in each engine’s placeholders', () => {
  const query = sql`SELECT * FROM t WHERE a = ${1} AND b = ${'x'} AND c < ${1.5}`;
  assert.deepEqual(forDuckDb(query), { sql: 'SELECT * FROM t WHERE a = ? AND b = ? AND c < ?', params: [1, 'x', 1.5] });
  assert.deepEqual(forPostgres(query), { text: 'SELECT * FROM t WHERE a = $1 AND b = $2 AND c < $3', values: [1, 'x', 1.5] });
  assert.deepEqual(forClickHouse(query), {
    query: 'SELECT * FROM t WHERE a = {p0:Int64} AND b = {p1:String} AND c < {p2:Float64}',
    params: { p0: 1, p1: 'x', p2: 1.5 },
  });
});

test('fragments nest and join with their values in order; an empty list is no SQL', () => {
  const filters = [sql`a = ${1}`, sql`b = ${'two'}`];
  const query = sql`SELECT x FROM t WHERE ${join(filters, ' AND ')} AND c IN (${join([3, 4])})${empty}`;
  assert.deepEqual(forDuckDb(query), { sql: 'SELECT x FROM t WHERE a = ? AND b = ? AND c IN (?, ?)', params: [1, 'two', 3, 4] });
  assert.equal(forDuckDb(join([])).sql, '');
});

test('names are checked, and a value that is no text or finite number is refused', () => {
  assert.equal(forDuckDb(sql`SELECT 1 FROM ${identifier('ops.request_events_local')}`).sql, 'SELECT 1 FROM ops.request_events_local');
  for (const name of ['a b', 'x; DROP TABLE y', 'a.b.c', '1a', '', '"quoted"']) assert.throws(() => identifier(name), /Not a plain SQL name/, name);
  for (const value of [NaN, Infinity, -Infinity]) {
    assert.throws(() => forDuckDb(sql`SELECT ${value}`), /finite number/);
    assert.throws(() => inlined(sql`SELECT ${value}`), /finite number/);
  }
  assert.throws(() => forClickHouse(sql`SELECT ${undefined as unknown as string}`), /Not a SQL value/);
});

test('DuckDB gets hostile text and numbers back as sent', async () => {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    for (const text of HOSTILE) {
      const { sql: query, params } = forDuckDb(sql`SELECT ${text} AS t, ${-12.5} AS n, ${2 ** 40} AS big`);
      const [row] = (await connection.runAndReadAll(query, params)).getRowObjectsJS();
      assert.ok(row, JSON.stringify(text));
      // A lone surrogate cannot be UTF-8: it arrives as U+FFFD, as the server cleans it on the way in.
      assert.equal(row['t'], text.toWellFormed(), JSON.stringify(text));
      assert.equal(Number(row['n']), -12.5);
      assert.equal(Number(row['big']), 2 ** 40);
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
});

test('18.16’s literals quote quotes, backslashes and NUL, and nothing else becomes SQL', () => {
  assert.equal(literal("it's"), "'it\\'s'");
  assert.equal(literal('back\\slash'), "'back\\\\slash'");
  assert.equal(literal('nul\0byte'), "'nul\\0byte'");
  assert.equal(literal(-3.25), '-3.25');
  assert.equal(inlined(sql`SELECT ${"'); DROP TABLE x; --"} WHERE a = ${7}`), "SELECT '\\'); DROP TABLE x; --' WHERE a = 7");
  // Placeholder-like text inside a value stays text.
  assert.equal(inlined(sql`SELECT ${'? and {p0:String}'}`), "SELECT '? and {p0:String}'");
});

test('ClickHouse gets query parameters from version 20 on, and literals only before (18.16)', () => {
  for (const version of ['18.16.1', '19.17.4.11', '', 'unknown']) assert.equal(bindFor(version), asLiterals, version);
  for (const version of ['20.3.1.2', '24.8.4.13', '26.7.1.1']) assert.equal(bindFor(version), asParameters, version);
  const query = sql`SELECT ${"it's"} AS s, ${7} AS n`;
  assert.deepEqual(asParameters(query), { query: 'SELECT {p0:String} AS s, {p1:Int64} AS n', query_params: { p0: "it's", p1: 7 } });
  assert.deepEqual(asLiterals(query), { query: "SELECT 'it\\'s' AS s, 7 AS n" });
});

test('current ClickHouse (chDB 26.7) takes the values as query parameters and gives hostile text back as sent', async () => {
  const { createChdbConnection } = await import('chdb/connection');
  const dir = mkdtempSync(joinPath(tmpdir(), 'ops-chdb-bind-'));
  const client = createClient({ connection: createChdbConnection({ path: joinPath(dir, 'db') }) as never });
  try {
    const bind = await bindOf(client);
    assert.equal(bind, asParameters);
    for (const text of HOSTILE) {
      const [row] = await rowsOf(client, sql`SELECT ${text} AS s, length(${text}) AS n, ${-3} + ${0.5} AS f`, bind);
      // A lone surrogate has no UTF-8: it comes back as U+FFFD, as ingest stores it.
      assert.deepEqual(row, { s: text.toWellFormed(), n: Buffer.byteLength(text), f: -2.5 }, text);
    }
  } finally {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
