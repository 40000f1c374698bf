/**
 * A key or token that is really set: an unset environment variable reads `undefined` in a
 * template, and `{ [process.env.KEY]: … }` would register the key "undefined".
 */
export const isCredential = (value: unknown): value is string =>
  typeof value === 'string' && value.trim() !== '' && !['undefined', 'null'].includes(value.trim());
