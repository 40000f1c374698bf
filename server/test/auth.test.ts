// Console auth beyond static tokens: HS256 JWTs, JWTs signed by a key from a JWKS URL (served
// here over loopback), and a custom authenticate(request) hook.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { createConsoleServer, type ConsoleServer } from '../src/index.ts';
import { call } from './harness.ts';

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
      auth: {
        authenticate: (request) => (request.headers.get('cookie') === 'session=ok' ? { accountId: 'acct_c', user: { id: 'u_c', name: 'Cam Lee' } } : undefined),
      },
    });
    try {
      assert.equal((await call(server, '/console/v1/activity', { headers: { cookie: 'session=ok' } })).status, 200);
      assert.equal((await call(server, '/console/v1/activity', { headers: { cookie: 'session=no' } })).status, 401);
    } finally {
      await server.close();
    }
  });
});
