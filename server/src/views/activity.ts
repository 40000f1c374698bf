/** GET /activity, and the items the server itself records. */
import { isoSeconds, type ViewContext } from '../context.ts';
import { offsetCursor, pageOf } from '../paging.ts';
import type { ActivityRecord } from '../store/types.ts';
import { turnOffDue } from './deprecations.ts';

export async function activity(ctx: ViewContext, query: { kind?: string; limit: number; cursor?: string }) {
  const offset = offsetCursor.decode(query.cursor);
  // Sunsets are recorded when the feed is next read: no timer, and nothing missed while no server ran.
  await turnOffDue(ctx.stores, ctx.accountId, ctx.now);
  const items = await ctx.stores.records.activity(ctx.accountId, { kind: query.kind || undefined, limit: query.limit + 1, offset });
  return pageOf(
    items,
    query.limit,
    (a) => {
      const subject = subjectOf(a);
      return { id: a.id, actor: a.actor, kind: a.kind, text: a.text, at: isoSeconds(a.ts), ...(subject ? { subject } : {}) };
    },
    () => offsetCursor.encode(offset + query.limit),
  );
}

/**
 * Where an item leads: the record a write was about, or the target the host named. An error
 * spike names its route across API versions, which is no single endpoint row: it leads nowhere.
 */
function subjectOf(a: ActivityRecord): { kind: string; id: string } | undefined {
  if (a.target) return a.target;
  if (!a.subject) return undefined;
  if (a.kind === 'note-added') return { kind: 'customer', id: a.subject };
  if (a.kind === 'error-recorded' || a.kind === 'status-changed') return { kind: 'error', id: a.subject };
  return undefined;
}
