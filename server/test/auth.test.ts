// Console auth beyond static tokens: HS256 JWTs, JWTs signed by a key from a JWKS URL (served
// here over loopback), and a custom authenticate(request) hook.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { createConsoleServer, serve, type ConsoleServer } from '../src/index.ts';
import { call, startServer } from './harness.ts';

const claims = { account: 'acct_jwt', name: 'Jo Wu' };
const sign = (key: Parameters<SignJWT['sign']>[0], alg: string, extra: Record<string, unknown> = {}) =>
  new SignJWT({ ...claims, ...extra }).setProtectedHeader({ alg, kid: 'k1' }).setSubject('u_jo').setIssuedAt().setExpirationTime('5m').sign(key);

describe('HS256 JWTs', () => {
  const secret = 'a-long-enough-shared-secret-for-hs256-tokens';
  let server: ConsoleServer;
  before(async () => {
    server = await createConsoleServer({ store: ':memory:', auth: { jwt: { secret } } });
  });
  after(() => server.close());

  test('a signed token reads its own account as its own person', async () => {
    const token = await sign(new TextEncoder().encode(secret), 'HS256');
    const { status, json } = await call(server, '/console/v1/overview', { token });
    assert.equal(status, 200);
    assert.deepEqual(json.owner, { id: 'u_jo', name: 'Jo Wu' });
  });

  test('a token signed with another secret, expired, or without an account is refused', async () => {
    const other = await sign(new TextEncoder().encode('another-secret-another-secret-another'), 'HS256');
    const expired = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u_jo')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(secret));
    const noAccount = await sign(new TextEncoder().encode(secret), 'HS256', { account: undefined });
    for (const token of [other, expired, noAccount, 'not.a.jwt']) assert.equal((await call(server, '/console/v1/overview', { token })).status, 401);
  });

  test('a token without exp is refused unless the server allows it, and one older than maxAge is refused', async () => {
    const key = new TextEncoder().encode(secret);
    const forever = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject('u_jo').setIssuedAt().sign(key);
    assert.equal((await call(server, '/console/v1/overview', { token: forever })).status, 401);
    const lenient = await createConsoleServer({ store: ':memory:', auth: { jwt: { secret, requireExpiry: false } } });
    const young = await createConsoleServer({ store: ':memory:', auth: { jwt: { secret, maxAge: '1h' } } });
    try {
      assert.equal((await call(lenient, '/console/v1/overview', { token: forever })).status, 200);
      const old = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('u_jo')
        .setIssuedAt(Math.floor(Date.now() / 1000) - 7_200)
        .setExpirationTime('1h')
        .sign(key);
      assert.equal((await call(young, '/console/v1/overview', { token: old })).status, 401, 'issued two hours ago');
      assert.equal((await call(young, '/console/v1/overview', { token: await sign(key, 'HS256') })).status, 200);
    } finally {
      await Promise.all([lenient.close(), young.close()]);
    }
  });

  test('audience and issuer are checked when set, and their absence is warned about at start', async () => {
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
    let strict: ConsoleServer | undefined;
    try {
      strict = await createConsoleServer({ store: ':memory:', auth: { jwt: { secret, audience: 'ops-console', issuer: 'https://id.example.com' } } });
      assert.deepEqual(warnings, []);
      const loose = await createConsoleServer({ store: ':memory:', auth: { jwt: { secret } } });
      await loose.close();
      assert.equal(warnings.length, 1);
      assert.match(warnings[0]!, /no audience or issuer/);
    } finally {
      console.warn = warn;
    }
    const key = new TextEncoder().encode(secret);
    const meant = (aud: string, iss: string) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject('u_jo').setAudience(aud).setIssuer(iss).setExpirationTime('5m').sign(key);
    try {
      assert.equal((await call(strict, '/console/v1/overview', { token: await meant('ops-console', 'https://id.example.com') })).status, 200);
      assert.equal((await call(strict, '/console/v1/overview', { token: await meant('billing', 'https://id.example.com') })).status, 401);
      assert.equal((await call(strict, '/console/v1/overview', { token: await meant('ops-console', 'https://evil.example') })).status, 401);
    } finally {
      await strict.close();
    }
  });
});

describe('keys and tokens in the options', () => {
  test('an empty, "undefined" or "null" key or token (an unset environment variable) is refused at start, naming the option', async () => {
    const principal = { accountId: 'acct_a', user: { id: 'u', name: 'U' } };
    const cases = [
      [{ ingestKeys: { [String(process.env['OPS_TEST_SURELY_UNSET'])]: 'acct_a' } }, /ingestKeys has the key "undefined"/],
      [{ ingestKeys: { '': 'acct_a' } }, /ingestKeys has the key ""/],
      [{ adminKeys: { null: 'acct_a' } }, /adminKeys has the key "null"/],
      [{ auth: { tokens: { ' undefined ': principal } } }, /auth.tokens has the key/],
      [{ auth: { jwt: { secret: 'undefined' } } }, /auth.jwt.secret/],
      [{ ingestKeys: { good: '' } }, /names no account/],
    ] as const;
    for (const [options, message] of cases) await assert.rejects(createConsoleServer({ store: ':memory:', ...options }), message);
  });
});

describe('JWTs from a JWKS URL', () => {
  let jwks: Server;
  let server: ConsoleServer;
  let privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  before(async () => {
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    jwks = createServer((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })));
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const { port } = jwks.address() as AddressInfo;
    server = await createConsoleServer({ store: ':memory:', auth: { jwt: { jwksUrl: `http://127.0.0.1:${port}/.well-known/jwks.json` } } });
  });
  after(async () => {
    await server.close();
    jwks.close();
  });

  test('accepts a token signed by the published key and refuses one signed by another', async () => {
    assert.equal((await call(server, '/console/v1/overview', { token: await sign(privateKey, 'RS256') })).status, 200);
    const stranger = await generateKeyPair('RS256');
    assert.equal((await call(server, '/console/v1/overview', { token: await sign(stranger.privateKey, 'RS256') })).status, 401);
  });
});

describe('a custom authenticate hook', () => {
  test('decides from the request, e.g. a session cookie', async () => {
    const server = await createConsoleServer({
      store: ':memory:',
      corsOrigins: ['https://portal.example.com'],
      auth: {
        authenticate: (request) => (request.headers.get('cookie') === 'session=ok' ? { accountId: 'acct_c', user: { id: 'u_c', name: 'Cam Lee' } } : undefined),
      },
    });
    try {
      assert.equal((await call(server, '/console/v1/activity', { headers: { cookie: 'session=ok' } })).status, 200);
      assert.equal((await call(server, '/console/v1/activity', { headers: { cookie: 'session=no' } })).status, 401);
      await server.stores.records.upsertCustomer('acct_c', {
        id: 'cus_1',
        name: 'Acme',
        createdAt: '2026-01-01',
        plan: 'Free',
        status: 'Active',
        owner: { id: 'u', name: 'U' },
      });
      const note = (headers: Record<string, string>) =>
        call(server, '/console/v1/customers/cus_1/notes', { body: JSON.stringify({ text: 'hi' }), headers: { cookie: 'session=ok', ...headers } });
      // What another site's page can send with the person's cookie: a text/plain POST (no preflight), or JSON from its own origin.
      const plain = await note({ 'content-type': 'text/plain', origin: 'https://evil.example' });
      assert.equal(plain.status, 415);
      assert.equal((await note({ 'content-type': 'application/json', origin: 'https://evil.example' })).status, 403);
      assert.equal((await note({ 'content-type': 'application/json' })).status, 403, 'no Origin at all');
      assert.equal((await server.stores.records.notes('acct_c', 'cus_1')).length, 0, 'nothing was written');
      assert.equal((await note({ 'content-type': 'application/json', origin: 'http://console.test' })).status, 201, 'the server’s own origin');
      assert.equal((await note({ 'content-type': 'application/json', origin: 'https://console.test' })).status, 201, 'its own host behind a TLS proxy');
      assert.equal((await note({ 'content-type': 'application/json; charset=utf-8', origin: 'https://portal.example.com' })).status, 201, 'an allowed origin');
    } finally {
      await server.close();
    }
  });

  test('an Authorization header decides alone: a junk bearer token with a good cookie is a 401, and the admin API never reads a cookie', async () => {
    const server = await createConsoleServer({
      store: ':memory:',
      adminKeys: { 'admin-key-of-acct-c-0001': 'acct_c' },
      auth: {
        authenticate: (request) =>
          request.headers.get('cookie') === 'session=admin' ? { accountId: 'acct_c', user: { id: 'u_c', name: 'Cam Lee' }, role: 'admin' } : undefined,
      },
    });
    try {
      const cookie = { cookie: 'session=admin' };
      assert.equal((await call(server, '/console/v1/activity', { headers: cookie })).status, 200, 'the cookie alone is the hook’s to take');
      assert.equal((await call(server, '/console/v1/activity', { token: 'junk', headers: cookie })).status, 401);
      assert.equal((await call(server, '/console/v1/activity', { headers: { ...cookie, authorization: 'Basic anVuaw==' } })).status, 401);
      const write = await call(server, '/console/v1/customers/cus_1/notes', {
        token: 'junk',
        body: { text: 'hi' },
        headers: { ...cookie, origin: 'https://evil.example' },
      });
      assert.equal(write.status, 401, 'no write is taken on the cookie, whatever the origin');
      const customer = { name: 'Acme', plan: 'Free', status: 'Active', owner: { id: 'u', name: 'U' } };
      assert.equal((await call(server, '/admin/v1/customers/cus_1', { method: 'PUT', token: 'junk', body: customer, headers: cookie })).status, 401);
      assert.equal((await call(server, '/admin/v1/customers/cus_1', { method: 'PUT', body: customer, headers: cookie })).status, 401);
      assert.equal((await call(server, '/admin/v1/customers/cus_1', { method: 'PUT', token: 'admin-key-of-acct-c-0001', body: customer })).status, 201);
    } finally {
      await server.close();
    }
  });
});

test('failed authentication is throttled per credential prefix and per address, with Retry-After, before any credential is checked', async () => {
  const server = await startServer();
  const http = await serve(server, { port: 0 });
  try {
    const read = (token: string) => fetch(`${http.url}/console/v1/activity`, { headers: { authorization: `Bearer ${token}` } });
    for (let i = 0; i < 20; i++) assert.equal((await read(`wrong-prefix-${i}`)).status, 401);
    const guessing = await read('wrong-prefix-20');
    assert.equal(guessing.status, 429);
    assert.ok(Number(guessing.headers.get('retry-after')) >= 1);
    assert.match(((await guessing.json()) as { detail: string }).detail, /More than 20 requests with a credential like this one failed authentication in 60 s/);
    assert.equal((await read('token-a')).status, 200, 'another credential from the same address is still taken');
    for (let i = 0; i < 40; i++) assert.equal((await read(`${i}-nope-${i}`)).status, 401);
    const blocked = await read('token-a');
    assert.equal(blocked.status, 429, 'past 60 failures, the address waits, even with a good token');
    assert.match(((await blocked.json()) as { detail: string }).detail, /from this address/);
    assert.equal((await call(server, '/console/v1/activity', { token: 'token-a' })).status, 200, 'another client is not held');
    const admin = await fetch(`${http.url}/admin/v1/activity`, { method: 'POST', headers: { authorization: 'Bearer wrong-admin' } });
    assert.equal(admin.status, 429, 'the admin API is the same lane');
    assert.equal((await fetch(`${http.url}/healthz`)).status, 200, 'health takes no credential and is never held');
  } finally {
    await http.close();
    await server.close();
  }
});

test('failed JWTs hold no other JWT: their lane is their signature, not the header every JWT shares', async () => {
  const secret = 'a-test-secret-of-enough-length-for-hs256';
  const server = await createConsoleServer({ store: ':memory:', auth: { jwt: { secret, issuer: 'portal', audience: 'ops-console' } } });
  try {
    const key = new TextEncoder().encode(secret);
    const sign = (subject: string) =>
      new SignJWT({ account: 'acct_j' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(subject)
        .setIssuer('portal')
        .setAudience('ops-console')
        .setExpirationTime('5m')
        .sign(key);
    const forged = async (i: number) => `${(await sign(`u_${i}`)).split('.').slice(0, 2).join('.')}.${'A'.repeat(10)}${i}xyz`;
    for (let i = 0; i < 25; i++) assert.equal((await call(server, '/console/v1/activity', { token: await forged(i) })).status, i < 20 ? 401 : 429);
    assert.equal((await call(server, '/console/v1/activity', { token: await sign('u_real') })).status, 200, 'a good JWT is not held by the forged ones');
  } finally {
    await server.close();
  }
});
