/**
 * The rollups count requests per quarter hour (every time zone's midnight falls on one): a
 * period is read as its whole quarter hours from a rollup and its ragged edges from the events.
 * Shared by the SQL stores, so each splits a period the same way.
 */
import type { Period } from '../calendar.ts';
import type { EventFilter } from './types.ts';

export const QUARTER_HOUR = 15 * 60_000;

/** A period split into its whole quarter hours (or other units: read from a rollup) and the ragged edges (read from the events). */
export function split(period: Period, unit = QUARTER_HOUR): { core?: Period; edges: Period[] } {
  const core = { from: Math.ceil(period.from / unit) * unit, to: Math.floor(period.to / unit) * unit };
  if (core.from >= core.to) return { edges: [period] };
  const edges = [
    { from: period.from, to: core.from },
    { from: core.to, to: period.to },
  ].filter((e) => e.from < e.to);
  return { core, edges };
}

/** Filters a rollup can answer: no customer, key, path text or duration. */
export const rollupCan = (filter: EventFilter) =>
  filter.customerId === undefined &&
  filter.keyId === undefined &&
  filter.pathContains === undefined &&
  !filter.words?.length &&
  filter.slowerThanMs === undefined;
