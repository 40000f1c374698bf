/**
 * Who may call which route, decided from the route table alone: the server enforces it for
 * every route in one place, the docs print it, and tests hold both to it.
 *
 * - Operators' tokens carry a role. `viewer` reads every console route, `editor` also makes
 *   the console's writes (notes, error records), `admin` also uses the admin API and mints
 *   embed sessions.
 * - A customer-scoped token (an embed session, or a JWT with a customer claim) sees one customer
 *   of one account: only the console routes with a `customerView`, and of those only the views
 *   the token names (all of them when it names none). Everything they answer is computed from
 *   that customer's events; another customer's id answers 404.
 * - Ingest routes take an ingest key, and operations routes no account at all: roles do not apply.
 */
import type { ROLES } from './enums.ts';
import { fullPath, type CustomerView, type Route } from './routes.ts';

export type Role = (typeof ROLES)[number];
export type { CustomerView };

/** The role a token gets when its source names none: today's tokens write notes and error records. */
export const DEFAULT_ROLE: Role = 'editor';
/** The longest an embed session may live, in seconds. */
export const MAX_EMBED_SESSION_SECONDS = 3600;

/** Who is calling, as far as access goes. */
export type Caller = { role: Role; customer?: undefined } | { role?: Role; customer: { id: string; views?: readonly CustomerView[] | undefined } };

const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2 };

/** Whether a role includes another: an admin is an editor and a viewer too. */
export const atLeast = (role: Role, needed: Role): boolean => RANK[role] >= RANK[needed];

/** The least role an operator needs for the route; undefined where roles do not apply (ingest, OTLP, operations). */
export function roleNeeded(route: Route): Role | undefined {
  if (route.group === 'admin') return 'admin';
  if (route.group !== 'console') return undefined;
  return route.writes ? 'editor' : 'viewer';
}

/** Why the caller may not call the route (a sentence for a 403), or undefined when it may. */
export function refusal(caller: Caller, route: Route): string | undefined {
  const needed = roleNeeded(route);
  if (needed === undefined) return undefined;
  if (caller.customer) {
    if (route.group === 'admin') return 'A customer’s token cannot use the admin API.';
    if (!route.customerView) return `A customer’s token sees only its own usage; ${route.method} ${fullPath(route)} is for the API’s operators.`;
    const views = caller.customer.views;
    if (views && !views.includes(route.customerView))
      return `This session covers ${views.join(', ') || 'no views'}; ${route.method} ${fullPath(route)} belongs to ${route.customerView}.`;
    return undefined;
  }
  if (RANK[caller.role] < RANK[needed]) return `${route.method} ${fullPath(route)} needs the ${needed} role; this token has ${caller.role}.`;
  return undefined;
}
