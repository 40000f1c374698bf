/**
 * Who is asking: console requests carry `Authorization: Bearer <token>` and resolve to an
 * account and a person; ingest and admin requests carry an ingest key and resolve to an account.
 */
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { ProblemError } from './problem.ts';
import type { Person } from './store/types.ts';

export interface Principal {
  accountId: string;
  user: Person;
}

export interface AuthOptions {
  /** Static tokens, for the embedded default and tests: `{ 'demo-token': { accountId, user } }`. */
  tokens?: Record<string, Principal>;
  /**
   * JWTs signed with an HS256 `secret` or by a key of `jwksUrl`. The account is the `account`
   * claim (or `accountClaim`), the person `sub` and `name`.
   */
  jwt?: { secret?: string; jwksUrl?: string; issuer?: string; audience?: string; accountClaim?: string };
  /** Your own check; return undefined to refuse. Runs when the other verifiers did not accept the token. */
  authenticate?: (request: Request) => Promise<Principal | undefined> | Principal | undefined;
}

const unauthorized = (detail: string) => new ProblemError(401, 'Unauthorized', detail, undefined, { 'www-authenticate': 'Bearer' });

export function bearerToken(request: Request): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  return match?.[1];
}

export function createAuthenticator(options: AuthOptions = {}): (request: Request) => Promise<Principal> {
  const { secret, jwksUrl } = options.jwt ?? {};
  const key = secret ? new TextEncoder().encode(secret) : jwksUrl ? createRemoteJWKSet(new URL(jwksUrl)) : undefined;
  const accountClaim = options.jwt?.accountClaim ?? 'account';

  const fromJwt = async (token: string): Promise<Principal | undefined> => {
    if (!key) return undefined;
    let payload: JWTPayload;
    try {
      const verified = await jwtVerify(token, key as Parameters<typeof jwtVerify>[1], {
        issuer: options.jwt?.issuer,
        audience: options.jwt?.audience,
        algorithms: secret ? ['HS256'] : undefined,
      });
      payload = verified.payload;
    } catch {
      return undefined;
    }
    const accountId = payload[accountClaim];
    if (typeof accountId !== 'string' || !accountId || typeof payload.sub !== 'string') return undefined;
    const name = typeof payload['name'] === 'string' ? payload['name'] : payload.sub;
    return { accountId, user: { id: payload.sub, name } };
  };

  return async (request) => {
    const token = bearerToken(request);
    const fromTokens = token && options.tokens && Object.hasOwn(options.tokens, token) ? options.tokens[token] : undefined;
    const principal = fromTokens ?? (token ? await fromJwt(token) : undefined) ?? (await options.authenticate?.(request));
    if (principal) return principal;
    throw unauthorized(token ? 'The token is not valid for this console.' : 'Send Authorization: Bearer <token>.');
  };
}

/** Ingest keys: `{ '<key>': '<accountId>' }`. */
export function createIngestAuthenticator(keys: Record<string, string> = {}): (request: Request) => string {
  return (request) => {
    const token = bearerToken(request);
    const accountId = token !== undefined && Object.hasOwn(keys, token) ? keys[token] : undefined;
    if (accountId) return accountId;
    throw unauthorized(token ? 'The ingest key is not valid.' : 'Send Authorization: Bearer <ingest key>.');
  };
}
