/**
 * The secrets of a configuration, each with one lane: a string is a console token, an ingest
 * key, an admin key, the metrics token or the JWT secret, never two of them (an ingest key that
 * is also an admin key would write records). The CLI's configuration also asks them to be long
 * and varied enough to resist guessing.
 */
import type { AuthOptions } from './auth.ts';

/** The shortest token or key the CLI takes. */
export const MIN_TOKEN_LENGTH = 16;
/** The shortest HS256 secret the CLI takes, in bytes: the hash's own size (RFC 7518 §3.2). */
export const MIN_JWT_SECRET_BYTES = 32;
/** Bits of guessing a secret must take, estimated from the spread of its characters. */
const MIN_BITS = 48;

interface Secrets {
  auth?: AuthOptions | undefined;
  embedSessionKeys?: readonly { id: string; secret?: string | undefined }[] | undefined;
  ingestKeys?: Record<string, string> | undefined;
  adminKeys?: Record<string, string> | undefined;
  metrics?: { token?: string | undefined } | undefined;
}

/** Each secret with the option it is set in. */
function secretsOf({ auth, embedSessionKeys, ingestKeys, adminKeys, metrics }: Secrets): { option: string; secret: string; minLength: number }[] {
  const keys = (option: string, record: Record<string, unknown> | undefined) =>
    Object.keys(record ?? {}).map((secret) => ({ option, secret, minLength: MIN_TOKEN_LENGTH }));
  return [
    ...keys('auth.tokens', auth?.tokens),
    ...keys('ingestKeys', ingestKeys),
    ...keys('adminKeys', adminKeys),
    ...(metrics?.token !== undefined ? [{ option: 'metrics.token', secret: metrics.token, minLength: MIN_TOKEN_LENGTH }] : []),
    ...(auth?.jwt?.secret !== undefined ? [{ option: 'auth.jwt.secret', secret: auth.jwt.secret, minLength: MIN_JWT_SECRET_BYTES }] : []),
    ...(embedSessionKeys ?? []).flatMap(({ secret }) =>
      secret === undefined ? [] : [{ option: 'embedSessionKeys', secret, minLength: MIN_JWT_SECRET_BYTES }],
    ),
  ];
}

/** `ingestKeys and adminKeys share a secret: …`, once per pair of options; the secret itself is never said. */
export function sharedSecrets(secrets: Secrets): string[] {
  const where = new Map<string, string>();
  const problems = new Set<string>();
  for (const { option, secret } of secretsOf(secrets)) {
    const first = where.get(secret);
    if (first === undefined) where.set(secret, option);
    else problems.add(`${first} and ${option} share a secret: each token and key must have one role`);
  }
  return [...problems];
}

/** Secrets too short or too uniform to resist guessing, by option: `ingestKeys: a key is shorter than 16 characters`. */
export function weakSecrets(secrets: Secrets): string[] {
  const problems = new Set<string>();
  for (const { option, secret, minLength } of secretsOf(secrets)) {
    const what = option === 'auth.jwt.secret' || option === 'metrics.token' ? 'is' : 'has a secret that is';
    const unit = minLength === MIN_JWT_SECRET_BYTES ? 'bytes' : 'characters';
    if (new TextEncoder().encode(secret).length < minLength) problems.add(`${option}: ${what} shorter than ${minLength} ${unit}`);
    else if (estimatedBits(secret) < MIN_BITS) problems.add(`${option}: ${what} too uniform to resist guessing (repeated characters); use a random one`);
  }
  return [...problems];
}

/** The secret's length times the entropy of its characters' spread: 0 for `aaaa…`, about 4 bits a character for hex. */
function estimatedBits(secret: string): number {
  const counts = new Map<string, number>();
  let length = 0;
  for (const char of secret) {
    counts.set(char, (counts.get(char) ?? 0) + 1);
    length++;
  }
  let perCharacter = 0;
  for (const count of counts.values()) perCharacter -= (count / length) * Math.log2(count / length);
  return perCharacter * length;
}
