/**
 * The Python and Go collectors' cost, as their own benches measure it the way collect.ts does:
 * a real server per framework in its own process, load from another, the API process's CPU per
 * response with the collector (sending to a sink) against the same handler bare, rounds
 * alternated. Budgets: ≤ 10 % of a bare FastAPI and Flask handler, ≤ 5 % of a bare net/http one.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Row } from './collect.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Share {
  bareUs: number;
  collectorUs: number;
  addedUs: number;
  addedShare: number;
  /** What two bare copies differ by: in µs (Python's bench), or as a share of the bare handler's (Go's). */
  noiseUs?: number;
  noiseShare?: number;
}

/** Runs a bench command and answers the JSON object it printed last, or why it could not. */
function benchJson(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Record<string, unknown> | string {
  const run = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 15 * 60_000, maxBuffer: 64 * 1024 * 1024 });
  if (run.error || run.status !== 0) return `${command} failed: ${run.error?.message ?? run.stderr.trim().split('\n').at(-1)}`;
  // The whole output is the JSON (Python's, indented), or its last line is (Go's, after its progress).
  const output = run.stdout.trim();
  for (const text of [output, output.split('\n').at(-1) ?? '']) {
    try {
      return JSON.parse(text) as Record<string, unknown>;
    } catch {
      // not this one
    }
  }
  return `${command} printed no JSON`;
}

function shareRow(rows: Row[], figure: string, share: Share | undefined, limit: number, failure?: string): void {
  if (!share) {
    rows.push({ group: 'collector', figure, value: failure ?? 'not measured', budget: `≤ ${limit * 100} %`, result: 'not measured' });
    return;
  }
  const noise = Math.abs(share.noiseUs ?? (share.noiseShare ?? 0) * share.bareUs);
  const allowed = share.bareUs * limit;
  rows.push({
    group: 'collector',
    figure,
    value: `${share.addedUs.toFixed(1)} against ${share.bareUs.toFixed(1)} µs (${(share.addedShare * 100).toFixed(1)} %)${noise ? `; noise floor ±${noise.toFixed(1)} µs` : ''}`,
    budget: `≤ ${limit * 100} %`,
    result: share.addedUs + noise <= allowed ? 'pass' : share.addedUs - noise > allowed ? 'FAIL' : 'within the noise floor',
  });
}

export function measureNativeCollectors(rows: Row[]): void {
  const python = process.env['OPS_CONSOLE_PYTHON'] ?? '/usr/bin/python3';
  const py = benchJson(python, ['collectors/python/bench.py'], root);
  const pyShares = typeof py === 'string' ? undefined : (py as Record<'fastapi' | 'flask', Share>);
  const pyFailure = typeof py === 'string' ? py : undefined;
  shareRow(rows, 'CPU per request the Python collector adds to a FastAPI handler on uvicorn (process against process)', pyShares?.fastapi, 0.1, pyFailure);
  shareRow(rows, 'CPU per request the Python collector adds to a Flask handler on werkzeug (process against process)', pyShares?.flask, 0.1, pyFailure);
  const go = benchJson('go', ['run', './cmd/bench'], `${root}collectors/go`, { GOFLAGS: '-mod=mod', GOPROXY: 'off', GOSUMDB: 'off' });
  shareRow(
    rows,
    'CPU per request the Go collector adds to a net/http handler (process against process)',
    typeof go === 'string' ? undefined : (go as unknown as Share),
    0.05,
    typeof go === 'string' ? go : undefined,
  );
}
