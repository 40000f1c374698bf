/**
 * The masking every collector must agree on, as cases: an input and what the reference masker
 * (contract/src/masking.ts) makes of it. The Python and Go collectors' tests read the JSON this
 * writes; `test/node/collectors.test.mjs` fails when the JSON and the reference disagree.
 *   node collectors/shared/masking-cases.ts > collectors/shared/masking-cases.json
 */
import { createMasker, MASKED_FIELDS, MASKED_HEADERS } from '@ops-console/contract/masking';

type Case =
  | { kind: 'header'; name: string; value: string }
  | { kind: 'path'; path: string }
  | { kind: 'text'; text: string }
  | { kind: 'body'; contentType: string; text: string };

const CASES: Case[] = [
  { kind: 'header', name: 'authorization', value: 'Bearer sk_live_1' },
  { kind: 'header', name: 'Cookie', value: 'sid=abc' },
  { kind: 'header', name: 'set-cookie', value: 'sid=abc; HttpOnly' },
  { kind: 'header', name: 'x-api-key', value: 'k_1' },
  { kind: 'header', name: 'proxy-authorization', value: 'Basic dTpw' },
  { kind: 'header', name: 'user-agent', value: 'curl/8.0' },
  { kind: 'header', name: 'x-note', value: 'card 4242 4242 4242 4242 on file' },
  { kind: 'path', path: '/v1/orders' },
  { kind: 'path', path: '/v1/login?user=ana&password=hunter2&next=/home' },
  { kind: 'path', path: '/v1/cb?access_token=abc&code=1' },
  { kind: 'path', path: '/v1/cards/4242424242424242' },
  { kind: 'path', path: '/v1/ids/4242424242424241' },
  { kind: 'path', path: '/v3/contacts-1795982332789' },
  { kind: 'path', path: '/v3/contacts-179598233278' },
  { kind: 'text', text: 'paid with 4111-1111-1111-1111 today' },
  { kind: 'text', text: 'order 12345 shipped' },
  {
    kind: 'body',
    contentType: 'application/json',
    text: '{"user":"ana","password":"hunter2","nested":{"apiKey":"k","list":[{"client_secret":"s"},{"ok":1}]}}',
  },
  {
    kind: 'body',
    contentType: 'application/json; charset=utf-8',
    text: '{"card_number":"4242424242424242","cvv":"123","note":"card 5555 5555 5555 4444","max_tokens":100}',
  },
  {
    kind: 'body',
    contentType: 'application/json',
    text: '{"X-Auth-Token":"t","refresh_token":{"a":1},"ssn":"123-45-6789","iban":"DE89","count":3,"password":null}',
  },
  { kind: 'body', contentType: 'application/json', text: '[{"token":"a"},{"secret":["x","y"]},"4242424242424242"]' },
  { kind: 'body', contentType: 'application/json', text: '{"password":"cut short befo' },
  { kind: 'body', contentType: 'application/json', text: 'not json {"password":"x"}' },
  { kind: 'body', contentType: 'application/x-www-form-urlencoded', text: 'user=ana&password=hunter2&card=4242424242424242&n=1' },
  { kind: 'body', contentType: 'text/plain', text: 'password=hunter2 and 4242 4242 4242 4242' },
  { kind: 'body', contentType: 'application/xml', text: '<card>4242424242424242</card>' },
];

const mask = createMasker();
const expected = (c: Case): string => {
  switch (c.kind) {
    case 'header':
      return mask.header(c.name.toLowerCase(), c.value);
    case 'path':
      return mask.path(c.path);
    case 'text':
      return mask.text(c.text);
    case 'body':
      return mask.body(c.contentType, c.text);
  }
};

export const maskingCases = () => ({
  masked: '[masked]',
  headers: MASKED_HEADERS,
  fields: MASKED_FIELDS,
  cases: CASES.map((c) => ({ ...c, expected: expected(c) })),
});

if (import.meta.main) process.stdout.write(JSON.stringify(maskingCases(), null, 2) + '\n');
