// What is masked before a request is kept (contract/src/masking.ts), case by case. That it happens on
// every ingest path and store is in ingest.test.ts and duckdb.test.ts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { BodyTap } from '../../collect/src/capture.ts';
import { keptBody, utf8Length } from '@ops-console/contract/captured-body';
import { maskingCases } from '../../collectors/shared/masking-cases.ts';
import { createMasker, MASKED } from '@ops-console/contract/masking';

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
      'x-note': 'pan 5555-5555-5555-4444',
    }),
    {
      Authorization: MASKED,
      'proxy-authorization': MASKED,
      cookie: MASKED,
      'Set-Cookie': MASKED,
      'x-api-key': MASKED,
      accept: 'text/html',
      'x-note': `pan ${MASKED}`,
    },
  );
  assert.deepEqual(createMasker({ headers: ['X-Tenant'] }).headers({ 'x-tenant': 't', 'x-other': 'o' }), { 'x-tenant': MASKED, 'x-other': 'o' });
  // A header whose name says it holds a secret goes whole, as the credential headers do.
  assert.deepEqual(masker.headers({ 'x-auth-token': 'tk', 'private-token': 'p', 'x-amz-security-token': 's', 'x-request-id': 'r' }), {
    'x-auth-token': MASKED,
    'private-token': MASKED,
    'x-amz-security-token': MASKED,
    'x-request-id': 'r',
  });
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

test('a JSON body: each secret field’s value masked at any depth and in arrays, card numbers in its strings; every other byte as sent', () => {
  const body = JSON.stringify(
    {
      user: { email: 'a@example.com', password: 'hunter2', profile: { api_key: 'ak_1', 'X-Auth-Token': null } },
      payments: [
        { card_number: '4242 4242 4242 4242', cvc: 123, amount: 1999 },
        { note: 'card 4111111111111111 on file', ts: 1726307000000 },
      ],
      'client\u005fsecret': 'cs_1',
      quoted: 'say "password": "x"',
      max_tokens: 256,
    },
    null,
    2,
  );
  const masked = masker.body('application/json; charset=utf-8', body);
  assert.deepEqual(JSON.parse(masked), {
    user: { email: 'a@example.com', password: MASKED, profile: { api_key: MASKED, 'X-Auth-Token': MASKED } },
    payments: [
      { card_number: MASKED, cvc: MASKED, amount: 1999 },
      { note: `card ${MASKED} on file`, ts: 1726307000000 },
    ],
    client_secret: MASKED,
    quoted: 'say "password": "x"',
    max_tokens: 256,
  });
  // Byte for byte but for the masked values: the layout (two-space indent) stays.
  const expected = [['"hunter2"'], ['"ak_1"'], ['null'], ['"4242 4242 4242 4242"'], ['123'], ['"cs_1"']].reduce(
    (text, [value]) => text.replace(`: ${value}`, `: "${MASKED}"`),
    body.replace('card 4111111111111111 on file', `card ${MASKED} on file`),
  );
  assert.equal(masked, expected);
  assert.equal(masker.body('application/vnd.api+json', '{"token":"t"}'), `{"token":"${MASKED}"}`);
});

test('a body cut short is masked as far as it goes; text that is not JSON under a JSON type is masked as text', () => {
  assert.equal(masker.body('application/json', '{"a":1,"password":"hun'), `{"a":1,"password":"${MASKED}"`);
  assert.equal(masker.body('application/json', '{"password":"a\\'), `{"password":"${MASKED}"`);
  assert.equal(masker.body('application/json', '{"password"'), '{"password"');
  assert.equal(masker.body('application/json', 'not json, card 4242424242424242'), `not json, card ${MASKED}`);
});

test('a form body as a query string; other text for card numbers and the config’s patterns only', () => {
  assert.equal(
    masker.body('application/x-www-form-urlencoded', 'user=ana&password=p%40ss&card=4242424242424242&q=hi'),
    `user=ana&password=${MASKED}&card=${MASKED}&q=hi`,
  );
  assert.equal(masker.body('text/plain', 'password=kept in plain text; card 4242-4242-4242-4242'), `password=kept in plain text; card ${MASKED}`);
  assert.equal(createMasker({ patterns: ['ord_\\w+'] }).body('text/xml', '<id>ord_991</id>'), `<id>${MASKED}</id>`);
  assert.equal(createMasker({ fields: ['email'] }).body('application/json', '{"email":"a@b.c"}'), `{"email":"${MASKED}"}`);
});

test('hostile bodies are masked in one pass: 10,000 levels deep, a 1 MB string, broken escapes and lone surrogates', () => {
  const deep = `${'{"a":['.repeat(10_000)}{"password":"x"}${']}'.repeat(10_000)}`;
  assert.equal(masker.body('application/json', deep), deep.replace('"password":"x"', `"password":"${MASKED}"`));
  const long = `{"note":"${'x'.repeat(1 << 20)}","token":"t"}`;
  assert.equal(masker.body('application/json', long), long.replace('"token":"t"', `"token":"${MASKED}"`));
  assert.equal(masker.body('application/json', '{"k\\q":"\\ud800","secret":"\\x"}'), `{"k\\q":"\\ud800","secret":"${MASKED}"}`);
});

test('a body is masked before it is cut, so what is kept never ends in part of a secret; the cut never splits a character', () => {
  const masker = createMasker();
  const card = keptBody({ contentType: 'text/plain', size: 26, text: `${'x'.repeat(10)}4242424242424242` }, masker, 20);
  assert.deepEqual(card, { contentType: 'text/plain', size: 26, truncated: false, text: 'xxxxxxxxxx[masked]' });
  const cut = keptBody({ contentType: 'text/plain', size: 30, text: `${'x'.repeat(14)}4242424242424242` }, masker, 20);
  assert.deepEqual(cut, { contentType: 'text/plain', size: 30, truncated: true, text: 'xxxxxxxxxxxxxx[maske' });
  // é is two bytes and 😀 four: a cut inside either keeps the characters before it.
  assert.equal(keptBody({ contentType: 'text/plain', size: 8, text: 'abé😀' }, masker, 5).text, 'abé');
  assert.equal(keptBody({ contentType: 'text/plain', size: 8, text: 'abé😀' }, masker, 4).text, 'abé');
  assert.equal(keptBody({ contentType: 'text/plain', size: 8, text: 'abé😀' }, masker, 3).text, 'ab');
  const json = keptBody({ contentType: 'application/vnd.api+json', size: 0, text: '{"a":{"b":[{"secret":"s3"}]}}' }, masker, 100);
  assert.deepEqual([JSON.parse(json.text!), json.size], [{ a: { b: [{ secret: '[masked]' }] } }, 29]);
  assert.equal(keptBody({ contentType: 'application/octet-stream', size: 7, text: 'binary' }, masker, 100).text, null);
});

test('a collector’s tap keeps a body’s first bytes as they pass: characters split across chunks read whole, text and bytes alike, the size counted past the cut', () => {
  const euro = Buffer.from('€'); // three bytes
  const tap = new BodyTap(5);
  tap.add(Buffer.concat([Buffer.from('ab'), euro.subarray(0, 1)]));
  tap.add(euro.subarray(1));
  tap.add(Buffer.from('cdef'));
  assert.deepEqual(tap.body('text/plain'), { contentType: 'text/plain', size: 9, text: 'ab€', truncated: true });
  const written = new BodyTap(100);
  written.add('{"a":');
  written.add('"é"}');
  assert.deepEqual(written.body('application/json'), { contentType: 'application/json', size: 10, text: '{"a":"é"}', truncated: false });
});

test('a secret name’s object or array goes whole; JSON is masked as JSON under any type; keys are text too', () => {
  assert.equal(
    masker.body('application/json', '{"api_keys":["sk_1",{"k":"sk_2"}],"secrets":{"DB_URL":"postgres://u:p@h"},"n":1}'),
    `{"api_keys":"${MASKED}","secrets":"${MASKED}","n":1}`,
  );
  assert.equal(masker.body('application/json', '{"password":{"value":"x"'), `{"password":"${MASKED}"`);
  assert.equal(masker.body('application/x-ndjson', '{"password":"a"}\n{"token":"b"}\n'), `{"password":"${MASKED}"}\n{"token":"${MASKED}"}\n`);
  assert.equal(masker.body('text/plain', '{"password":"a"}'), `{"password":"${MASKED}"}`);
  assert.equal(createMasker({ patterns: ['\\w+@corp\\.com'] }).body('application/json', '{"alice@corp.com":{"n":1}}'), `{"${MASKED}":{"n":1}}`);
  // A pattern may match a string too short to hold a card number, value or key.
  assert.equal(
    createMasker({ patterns: ['\\d{3}-\\d{2}-\\d{4}', '[a-z]+@[a-z]+\\.[a-z]+'] }).body(
      'application/json',
      '{"ssn_no":"123-45-6789","email":"a@b.co","a@b.co":1}',
    ),
    `{"ssn_no":"${MASKED}","email":"${MASKED}","${MASKED}":1}`,
  );
});

test('what is kept of a cut body never ends in what was next to the cut, even when masking made it shorter', () => {
  // A long secret first (masked much shorter), then a card number split by the cut.
  const body = `{"token":"${'t'.repeat(500)}","note":"card 4242 4242 4242 4242"}`;
  const cut = body.slice(0, body.indexOf('4242') + 12);
  for (const kept of [
    keptBody({ contentType: 'application/json', size: body.length, text: body }, masker, cut.length - 256),
    keptBody({ contentType: 'application/json', size: body.length, text: cut, truncated: true }, masker, 1_000),
  ]) {
    assert.equal(kept.truncated, true);
    assert.ok(!kept.text!.includes('4242'), kept.text!);
    assert.ok(kept.text!.startsWith(`{"token":"${MASKED}"`), kept.text!);
  }
});

test('a body whose sender gives a larger size than its text, without truncated, is kept whole; a short cut body keeps what is safe', () => {
  const text = '{"orderId":"ord_1","card":"4242 4242 4242 4242"}';
  assert.deepEqual(keptBody({ contentType: 'application/json', size: 900, text }, masker, 1_000), {
    contentType: 'application/json',
    size: 900,
    truncated: false,
    text: `{"orderId":"ord_1","card":"${MASKED}"}`,
  });
  const cut = `{"orderId":"ord_1","note":"${'n'.repeat(80)} card 4242 4242 42`;
  const kept = keptBody({ contentType: 'application/json', size: 300, text: cut, truncated: true }, masker, 1_000);
  assert.equal(kept.truncated, true);
  assert.ok(kept.text!.startsWith('{"orderId":"ord_1","note":"nnn') && !kept.text!.includes('4242'), kept.text!);
});

test('the masking cases the Python and Go collectors pass are what this masker does', () => {
  const committed: unknown = JSON.parse(readFileSync(new URL('../../collectors/shared/masking-cases.json', import.meta.url), 'utf8'));
  assert.deepEqual(committed, maskingCases(), 'run: node collectors/shared/masking-cases.ts > collectors/shared/masking-cases.json');
});

test('a UTF-8 length counted without encoding is what encoding gives, lone surrogates and pairs included', () => {
  const texts = ['', 'abc', 'é', '€', '😀', '\ud800', '\udc00x', 'a\ud83dz', 'ü€😀\ud800\udfff\udfff\ud800'];
  for (let seed = 1, n = 0; n < 2_000; n++) {
    let text = '';
    for (let k = 0; k < 8; k++) text += String.fromCharCode((seed = (seed * 48_271) % 2_147_483_647) % 0x1_00_00);
    texts.push(text);
  }
  for (const text of texts) assert.equal(utf8Length(text), Buffer.byteLength(text, 'utf8'), JSON.stringify(text));
});
