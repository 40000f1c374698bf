/**
 * Who is asking: console requests carry `Authorization: Bearer <token>` and resolve to an
 * account and a person; ingest and admin requests carry an ingest key and resolve to an account.
 */
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { isCredential } from './credentials.ts';
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
  jwt?: {
    secret?: string;
    jwksUrl?: string;
    /** The `iss` a token must carry; without it any issuer's token that verifies is taken (a warning says so at start). */
    issuer?: string;
    /** The `aud` a token must carry; without it a token meant for another service is taken (a warning says so at start). */
    audience?: string;
    accountClaim?: string;
    /** Tokens must carry `exp` (default true): a token without one would be good forever. */
    requireExpiry?: boolean;
    /** The oldest a token may be, from its `iat` (`'12h'`, or seconds); tokens must then carry `iat`. */
    maxAge?: string | number;
  };
  /** Your own check; return undefined to refuse. Runs when the other verifiers did not accept the token. */
  authenticate?: (request: Request) => Promise<Principal | undefined> | Principal | undefined;
}

const unauthorized = (detail: string) => new ProblemError(401, 'Unauthorized', detail, undefined, { 'www-authenticate': 'Bearer' });

export function bearerToken(request: Request): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  return match?.[1];
}

/** Refuses options whose keys or tokens are empty, `"undefined"` or `"null"`, naming the option. */
function checkCredentials(option: string, credentials: Record<string, unknown> | undefined): void {
  for (const [credential, owner] of Object.entries(credentials ?? {})) {
    if (!isCredential(credential))
      throw new Error(`${option} has the key ${JSON.stringify(credential)}: is the environment variable that should hold it unset?`);
    if (!owner) throw new Error(`${option} names no account for one of its keys.`);
  }
}

export function createAuthenticator(options: AuthOptions = {}): (request: Request) => Promise<Principal> {
  checkCredentials('auth.tokens', options.tokens);
  const { secret, jwksUrl } = options.jwt ?? {};
  if (options.jwt && !secret && !jwksUrl) throw new Error('auth.jwt needs a secret or a jwksUrl.');
  if (secret !== undefined && !isCredential(secret)) throw new Error('auth.jwt.secret is empty or "undefined": is its environment variable unset?');
  const verifyKey = key(options);
  if (verifyKey && (!options.jwt?.audience || !options.jwt.issuer))
    console.warn('[ops-console server] auth.jwt has no audience or issuer: a token any service signed with this key would be taken. Set both.');
  const accountClaim = options.jwt?.accountClaim ?? 'account';

  const fromJwt = async (token: string): Promise<Principal | undefined> => {
    if (!verifyKey) return undefined;
    let payload: JWTPayload;
    try {
      const verified = await jwtVerify(token, verifyKey as Parameters<typeof jwtVerify>[1], {
        issuer: options.jwt?.issuer,
        audience: options.jwt?.audience,
        algorithms: secret ? ['HS256'] : undefined,
        requiredClaims: options.jwt?.requireExpiry === false ? [] : ['exp'],
        maxTokenAge: options.jwt?.maxAge,
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

/** The key that verifies JWTs: an HS256 secret or a remote JWKS. */
function key(options: AuthOptions) {
  const { secret, jwksUrl } = options.jwt ?? {};
  return secret ? new TextEncoder().encode(secret) : jwksUrl ? createRemoteJWKSet(new URL(jwksUrl)) : undefined;
}

/** Ingest or admin keys: `{ '<key>': '<accountId>' }`; `option` names them in errors. */
export function createKeyAuthenticator(keys: Record<string, string> = {}, option: 'ingestKeys' | 'adminKeys'): (request: Request) => string {
  checkCredentials(option, keys);
  const what = option === 'ingestKeys' ? 'ingest key' : 'admin key';
  return (request) => {
    const token = bearerToken(request);
    const accountId = token !== undefined && Object.hasOwn(keys, token) ? keys[token] : undefined;
    if (accountId) return accountId;
    throw unauthorized(token ? `The ${what} is not valid.` : `Send Authorization: Bearer <${what}>.`);
  };
}
