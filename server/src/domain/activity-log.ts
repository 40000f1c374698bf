/** The activity feed's writes: what views, alert evaluation and spike checks record, and who the server's own items name. */
import { randomUUID } from 'node:crypto';
import type { ActivityRecord, Person, Stores } from '../store/types.ts';

/** Who the server's own items name when the host named nobody. */
export const CONSOLE_ACTOR: Person = { id: 'ops-console', name: 'Ops Console' };

export async function recordActivity(
  stores: Stores,
  accountId: string,
  item: { kind: string; actor: Person; text: string; ts: number; subject?: string | null; target?: { kind: string; id: string } | null },
): Promise<ActivityRecord> {
  const record: ActivityRecord = { id: `act_${randomUUID()}`, subject: null, ...item };
  await stores.records.addActivity(accountId, record);
  return record;
}
