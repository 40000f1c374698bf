/**
 * Embed sessions, as Stripe's AccountSession: the host's backend asks for a short-lived token
 * bound to one customer (and, if it says so, some views), and hands it to the page. The token is
 * a JWT signed with a key of this server's (its `kid` names which), so any replica verifies it;
 * what is stored is only what ends sessions early: one session by its id, every session of a
 * customer, or the customer no longer being Active.
 */
import { randomBytes } from 'node:crypto';
import { SignJWT, decodeProtectedHeader, errors, jwtVerify } from 'jose';
import type { CustomerView } from '@ops-console/contract/access';
import type { Principal } from './principal.ts';

const ISSUER = 'ops-console';
const AUDIENCE = 'ops-console/embed-session';

/** A key that signs and verifies sessions; `secret` absent is the key the store made (`id: 'stored'`). */
export interface EmbedSessionKey {
  id: string;
  secret?: string | undefined;
}

/** Why a session of ours is refused although its signature holds. */
export type SessionRefusal = 'expired' | 'ended' | 'inactive';

export interface EmbedSessions {
  /** A token for the customer's console until `now + seconds`, with the session's id. */
  mint(session: { accountId: string; customer: { id: string; name: string }; views?: readonly CustomerView[] | undefined; seconds: number }): Promise<{
    id: string;
    token: string;
    expiresAt: string;
  }>;
  /** The session's principal; a refusal for one of ours that no longer holds; undefined for any other token. */
  verify(token: string): Promise<Principal | SessionRefusal | undefined>;
}

/** What says whether a session still holds: the customer is Active, and neither it nor its customer was ended after it was minted. */
export type SessionCheck = (session: { accountId: string; customerId: string; id: string; issuedMs: number }) => Promise<'ended' | 'inactive' | undefined>;

export function createEmbedSessions(keys: readonly EmbedSessionKey[], storedSecret: string, clock: () => number, check: SessionCheck): EmbedSessions {
  const encoded = new Map(keys.map((key) => [key.id, new TextEncoder().encode(key.secret ?? storedSecret)]));
  const signing = keys[0]!;
  // Tokens minted before sessions carried a key id were signed with the stored key.
  const keyOf = (token: string) => {
    try {
      const { kid } = decodeProtectedHeader(token);
      return encoded.get(typeof kid === 'string' ? kid : 'stored');
    } catch {
      return undefined;
    }
  };
  return {
    async mint({ accountId, customer, views, seconds }) {
      const nowMs = clock();
      const now = Math.floor(nowMs / 1000);
      const id = `es_${randomBytes(12).toString('base64url')}`;
      const token = await new SignJWT({ account: accountId, name: customer.name, issuedMs: nowMs, ...(views ? { views } : {}) })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: signing.id })
        .setJti(id)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject(customer.id)
        .setIssuedAt(now)
        .setExpirationTime(now + seconds)
        .sign(encoded.get(signing.id)!);
      return { id, token, expiresAt: new Date((now + seconds) * 1000).toISOString().replace('.000Z', 'Z') };
    },
    async verify(token) {
      const key = keyOf(token);
      if (!key) return undefined;
      let payload;
      try {
        ({ payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: ['HS256'],
          requiredClaims: ['exp', 'sub'],
          currentDate: new Date(clock()),
        }));
      } catch (error) {
        return error instanceof errors.JWTExpired ? 'expired' : undefined;
      }
      const { account, name, views, issuedMs } = payload as { account?: unknown; name?: unknown; views?: unknown; issuedMs?: unknown };
      if (typeof account !== 'string' || typeof payload.sub !== 'string') return undefined;
      const refused = await check({
        accountId: account,
        customerId: payload.sub,
        id: payload.jti ?? '',
        issuedMs: typeof issuedMs === 'number' ? issuedMs : (payload.iat ?? 0) * 1000,
      });
      if (refused) return refused;
      const customer = { id: payload.sub, ...(Array.isArray(views) ? { views: views as CustomerView[] } : {}) };
      return { accountId: account, user: { id: payload.sub, name: typeof name === 'string' ? name : payload.sub }, role: 'viewer', customer };
    },
  };
}
