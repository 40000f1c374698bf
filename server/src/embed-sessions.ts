/**
 * Embed sessions, as Stripe's AccountSession: the host's backend asks for a short-lived token
 * bound to one customer (and, if it says so, some views), and hands it to the page. The token is
 * a JWT signed with this server's own secret, so no session table is kept and any replica of
 * the server verifies it.
 */
import { SignJWT, errors, jwtVerify } from 'jose';
import type { CustomerView } from '@ops-console/contract/access';
import type { Principal } from './auth.ts';

const ISSUER = 'ops-console';
const AUDIENCE = 'ops-console/embed-session';

export interface EmbedSessions {
  /** A token for the customer's console until `now + seconds`. */
  mint(session: { accountId: string; customer: { id: string; name: string }; views?: readonly CustomerView[] | undefined; seconds: number }): Promise<{
    token: string;
    expiresAt: string;
  }>;
  /** The session's principal; `'expired'` for one of ours past its time; undefined for any other token. */
  verify(token: string): Promise<Principal | 'expired' | undefined>;
}

export function createEmbedSessions(secret: string, clock: () => number): EmbedSessions {
  const key = new TextEncoder().encode(secret);
  return {
    async mint({ accountId, customer, views, seconds }) {
      const now = Math.floor(clock() / 1000);
      const token = await new SignJWT({ account: accountId, name: customer.name, ...(views ? { views } : {}) })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject(customer.id)
        .setIssuedAt(now)
        .setExpirationTime(now + seconds)
        .sign(key);
      return { token, expiresAt: new Date((now + seconds) * 1000).toISOString().replace('.000Z', 'Z') };
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: ['HS256'],
          requiredClaims: ['exp', 'sub'],
          currentDate: new Date(clock()),
        });
        const { account, name, views } = payload as { account?: unknown; name?: unknown; views?: unknown };
        if (typeof account !== 'string' || typeof payload.sub !== 'string') return undefined;
        const customer = { id: payload.sub, ...(Array.isArray(views) ? { views: views as CustomerView[] } : {}) };
        return { accountId: account, user: { id: payload.sub, name: typeof name === 'string' ? name : payload.sub }, role: 'viewer', customer };
      } catch (error) {
        return error instanceof errors.JWTExpired ? 'expired' : undefined;
      }
    },
  };
}
