// An alert webhook receiver's check: Ops-Console-Signature is "t=<unix seconds>,v1=<hex>", the
// HMAC-SHA256 of "<t>.<raw body>" with the channel's secret. Compare in constant time, and refuse
// old deliveries so a captured one cannot be replayed.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function verifyAlertWebhook(
  secret: string,
  header: string | undefined,
  rawBody: string,
  nowSeconds = Date.now() / 1000,
  toleranceSeconds = 300,
): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!match) return false;
  const [, t, v1] = match as unknown as [string, string, string];
  if (Math.abs(nowSeconds - Number(t)) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  return timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}
