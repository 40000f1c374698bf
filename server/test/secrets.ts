// Secrets a request may carry, for the tests that check they are masked before anything is kept.
import { goodEvent } from './harness.ts';

/** Secrets of every kind a request may carry, each a string found nowhere once masked. */
export const SECRETS = {
  bearer: 'sk_live_51Hq2bearer',
  cookie: 's3ss10n_cookie_v4lue',
  apiKey: 'ak_9f8e7d6c5b4a',
  configured: 'tenant-secret-77',
  card: '4242 4242 4242 4242',
  queryCard: '4111111111111111',
  token: 'tok_query_5e5e',
  account: 'acct-314159',
  bodyPassword: 'pw_hunter_2x',
  bodyCard: '5555555555554444',
  responseToken: 'rt_0ff1ce_9',
};

/** A request event carrying `SECRETS` in its headers and path, with what must stay as sent beside them. */
export const eventWithSecrets = (i: number) => ({
  ...goodEvent(i),
  path: `/pay/acct-314159?card_number=${SECRETS.queryCard}&page=2&access_token=${SECRETS.token}&order=4242424242424241`,
  headers: {
    authorization: `Bearer ${SECRETS.bearer}`,
    cookie: `session=${SECRETS.cookie}`,
    'x-api-key': SECRETS.apiKey,
    'x-tenant-secret': SECRETS.configured,
    'x-note': `paid with ${SECRETS.card}`,
    'user-agent': 'curl/8.5',
  },
  requestBody: {
    contentType: 'application/json',
    size: 120,
    text: JSON.stringify({ user: { password: SECRETS.bodyPassword }, payments: [{ note: `card ${SECRETS.bodyCard}` }] }),
  },
  responseBody: { contentType: 'application/x-www-form-urlencoded', size: 40, text: `refresh_token=${SECRETS.responseToken}&ok=1` },
});

/** The config's additions to what is masked, as the tests use them. */
export const MASK_CONFIG = { headers: ['X-Tenant-Secret'], patterns: ['acct-\\d{6}'] };
