// What is masked before a request is kept (src/capture/mask.ts), case by case. That it happens on
// every ingest path and store is in ingest.test.ts and duckdb.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMasker, MASKED } from '../src/capture/mask.ts';

const masker = createMasker();

test('credential headers are masked whatever their case; others keep their value, with card numbers in it masked', () => {
  assert.deepEqual(
    masker.headers({
      Authorization: 'Bearer x',
      'proxy-authorization': 'Basic y',
      cookie: 'a=b',
      'Set-Cookie': 'c=d',
      'x-api-key': 'k',
      accept: 'text/html',
      'x-card': 'pan 5555-5555-5555-4444',
    }),
    {
      Authorization: MASKED,
      'proxy-authorization': MASKED,
      cookie: MASKED,
      'Set-Cookie': MASKED,
      'x-api-key': MASKED,
      accept: 'text/html',
      'x-card': `pan ${MASKED}`,
    },
  );
  assert.deepEqual(createMasker({ headers: ['X-Tenant'] }).headers({ 'x-tenant': 't', 'x-other': 'o' }), { 'x-tenant': MASKED, 'x-other': 'o' });
});

test('field names that hold a secret, compared without case or separators', () => {
  const secret = [
    'password',
    'newPassword',
    'client_secret',
    'X-Auth-Token',
    'refresh_token',
    'api_key',
    'apiKey',
    'API-KEY',
    'authorization',
    'card',
    'card_number',
    'cardNumber',
    'cvc',
    'cvv',
    'ssn',
    'iban',
    'passwd',
  ];
  const plain = ['page', 'name', 'cardholder', 'order_id', 'q', 'max_tokens'];
  assert.deepEqual(
    secret.filter((name) => !masker.isSecretField(name)),
    [],
  );
  assert.deepEqual(
    plain.filter((name) => masker.isSecretField(name)),
    [],
  );
  assert.ok(createMasker({ fields: ['Order ID'] }).isSecretField('order_id'), 'the config adds names');
  assert.ok(createMasker({ fields: ['order_id'] }).isSecretField('password'), 'and cannot remove the defaults');
});

test('a path: secret query fields (names percent-encoded or not), card numbers and the config’s patterns; the rest byte for byte', () => {
  assert.equal(
    masker.path('/a?token=abc&page=2&api%5Fkey=k%20v&flag&=x&card+number=4242424242424242#frag'),
    `/a?token=${MASKED}&page=2&api%5Fkey=${MASKED}&flag&=x&card+number=${MASKED}#frag`,
  );
  assert.equal(masker.path('/cards/4242-4242-4242-4242/charges'), `/cards/${MASKED}/charges`);
  assert.equal(masker.path('/orders/4242424242424241'), '/orders/4242424242424241', 'digits that fail the Luhn check are no card');
  assert.equal(masker.path('/n/123456789012'), '/n/123456789012', 'nor are 12 digits');
  assert.equal(masker.path('/n/12345678901234567890'), '/n/12345678901234567890', 'nor 20');
  assert.equal(masker.path('/%E0%A4%A?token=%E0%A4%A'), `/%E0%A4%A?token=${MASKED}`, 'broken percent-encoding is read as sent');
  assert.equal(createMasker({ patterns: ['acct-\\d{6}', 'sk_(live|test)_\\w+'] }).text('acct-123456 then SK_LIVE_abc'), `${MASKED} then ${MASKED}`);
});
