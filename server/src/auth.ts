/**
 * Who is asking: console requests carry `Authorization: Bearer <token>` and resolve to an
 * account, a person and a role, or to one customer of an account (an embed session, or a token
 * with a customer claim); ingest requests carry an ingest key, and admin requests an admin key
 * or an admin's token, and resolve to an account. What each may call is the contract's
 * (`@ops-console/contract/access`), checked for every route in server.ts.
 */
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { CUSTOMER_VIEWS, ROLES } from '@ops-console/contract/enums';
import { DEFAULT_ROLE, type CustomerView, type Role } from '@ops-console/contract/access';
import { isCredential } from '@ops-console/contract/credentials';
import type { Principal } from './principal.ts';
import type { EmbedSessions } from './embed-sessions.ts';
import { ProblemError } from './problem.ts';
import type { Person } from './store/types.ts';

export type { Principal } from './principal.ts';

/** A static token: an operator (`role`, default `editor`) or, with `customerId`, one customer's console (`views` to narrow it). */
export interface StaticToken {
  accountId: string;
  user: Person;
  role?: Role;
  customerId?: string;
  views?: readonly CustomerView[];
}

export interface AuthOptions {
  /** Static tokens, for the embedded default and tests: `{ 'demo-token': { accountId, user, role: 'editor' } }`. */
  tokens?: Record<string, StaticToken>;
  /**
   * JWTs signed with an HS256 `secret` or by a key of `jwksUrl`. The account is the `account`
   * claim (or `accountClaim`), the person `sub` and `name`, the role the claim `roleClaim` names
   * (without it, every token is an `editor`). A token with a `customer` claim (or `customerClaim`) sees only
   * that customer, limited to its `views` claim when it has one: hosts that mint their own
   * tokens get what an embed session gives.
   */
  jwt?: {
    secret?: string;
    jwksUrl?: string;
    /** The `iss` a token must carry; without it any issuer's token that verifies is taken (a warning says so at start). */
    issuer?: string;
    /** The `aud` a token must carry; without it a token meant for another service is taken (a warning says so at start). */
    audience?: string;
    accountClaim?: string;
    /** The claim holding the role (`viewer`, `editor`, `admin`); unset, roles are not read from JWTs. */
    roleClaim?: string;
    customerClaim?: string;
    /** Tokens must carry `exp` (default true): a token without one would be good forever. */
    requireExpiry?: boolean;
    /** The oldest a token may be, from its `iat` (`'12h'`, or seconds); tokens must then carry `iat`. */
    maxAge?: string | number;
  };
  /**
   * Your own check; return undefined to refuse. Runs when the other verifiers did not accept the
   * token. A request with an Authorization header reaches it without its cookies: the header
   * decides alone. Without a `role`, the principal is an `editor`.
   */
  authenticate?: (request: Request) => Promise<AuthenticatedPrincipal | undefined> | AuthenticatedPrincipal | undefined;
}

/** What `authenticate` returns: a principal whose role may be left to the default. */
export type AuthenticatedPrincipal = Omit<Principal, 'role'> & { role?: Role };

const isRole = (value: unknown): value is Role => (ROLES as readonly unknown[]).includes(value);
const isViews = (value: unknown): value is CustomerView[] =>
  Array.isArray(value) && value.every((view) => (CUSTOMER_VIEWS as readonly unknown[]).includes(view));

/** A principal from any source, its role and views checked: a role or view this server does not know is refused, not guessed. */
function principalOf(source: AuthenticatedPrincipal & { customerId?: unknown; views?: unknown }): Principal | undefined {
  const role = source.role ?? DEFAULT_ROLE;
  if (!isRole(role)) return undefined;
  // A customer id that is there but empty is refused: read as none, it would be an operator's token.
  if (source.customerId !== undefined && (typeof source.customerId !== 'string' || !source.customerId)) return undefined;
  if (source.customer !== undefined && !source.customer.id) return undefined;
  const customer = source.customer ?? (source.customerId ? { id: source.customerId } : undefined);
  if (!customer) return { accountId: source.accountId, user: source.user, role };
  const views = source.customer?.views ?? source.views;
  if (views !== undefined && !isViews(views)) return undefined;
  return { accountId: source.accountId, user: source.user, role: 'viewer', customer: { id: customer.id, ...(views ? { views } : {}) } };
}

const unauthorized = (detail: string) => new ProblemError(401, 'Unauthorized', detail, undefined, { 'www-authenticate': 'Bearer' });

/**
 * The request as a credential check may see it: when it carries an Authorization header, that
 * header decides alone, so its cookies are taken away (a junk bearer token must not let a session
 * cookie through, nor skip the checks only cookie-borne requests get).
 */
export const credentialsOnly = (request: Request): Request => (request.headers.has('authorization') ? withoutCookies(request) : request);

/** The request without its cookies (and without its body, which no credential check reads). */
export function withoutCookies(request: Request): Request {
  if (!request.headers.has('cookie')) return request;
  const headers = new Headers(request.headers);
  headers.delete('cookie');
  return new Request(request.url, { method: request.method, headers });
}

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

/** The server's own parts the authenticator uses: its embed sessions, and its clock (tokens expire by it). */
export interface AuthParts {
  embedSessions?: EmbedSessions;
  now?: () => number;
}

export function createAuthenticator(options: AuthOptions = {}, { embedSessions, now = Date.now }: AuthParts = {}): (request: Request) => Promise<Principal> {
  checkCredentials('auth.tokens', options.tokens);
  for (const [, token] of Object.entries(options.tokens ?? {}))
    if (!principalOf(token))
      throw new Error(
        `auth.tokens has a token for ${token.user.id} with an unknown role or view, or an empty customerId: roles are ${ROLES.join(', ')}; views ${CUSTOMER_VIEWS.join(', ')}.`,
      );
  const { secret, jwksUrl } = options.jwt ?? {};
  if (options.jwt && !secret && !jwksUrl) throw new Error('auth.jwt needs a secret or a jwksUrl.');
  if (secret !== undefined && !isCredential(secret)) throw new Error('auth.jwt.secret is empty or "undefined": is its environment variable unset?');
  const verifyKey = key(options);
  if (verifyKey && (!options.jwt?.audience || !options.jwt.issuer))
    console.warn('[ops-console server] auth.jwt has no audience or issuer: a token any service signed with this key would be taken. Set both.');
  const accountClaim = options.jwt?.accountClaim ?? 'account';
  // Opt-in: a claim named `role` in a host's own tokens may mean something else (`authenticated`), and must not grant the admin API.
  const roleClaim = options.jwt?.roleClaim;
  const customerClaim = options.jwt?.customerClaim ?? 'customer';

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
        currentDate: new Date(now()),
      });
      payload = verified.payload;
    } catch {
      return undefined;
    }
    const accountId = payload[accountClaim];
    if (typeof accountId !== 'string' || !accountId || typeof payload.sub !== 'string') return undefined;
    const name = typeof payload['name'] === 'string' ? payload['name'] : payload.sub;
    const customerId = payload[customerClaim];
    if (customerId !== undefined && (typeof customerId !== 'string' || !customerId)) return undefined;
    const role = roleClaim === undefined ? undefined : (payload[roleClaim] as Role | undefined);
    return principalOf({ accountId, user: { id: payload.sub, name }, role, customerId, views: payload['views'] });
  };

  return async (request) => {
    const token = bearerToken(request);
    const fromTokens = token && options.tokens && Object.hasOwn(options.tokens, token) ? principalOf(options.tokens[token]!) : undefined;
    const session = !fromTokens && token && embedSessions ? await embedSessions.verify(token) : undefined;
    if (session === 'expired') throw unauthorized('The embed session has expired: ask your backend for a new one.');
    if (session === 'ended') throw unauthorized('The embed session was ended: ask your backend for a new one.');
    if (session === 'inactive') throw unauthorized('The customer of this embed session is not Active: its console is closed.');
    const custom = async () => {
      const found = await options.authenticate?.(credentialsOnly(request));
      return found && principalOf(found);
    };
    const principal = fromTokens ?? session ?? (token ? await fromJwt(token) : undefined) ?? (await custom());
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
