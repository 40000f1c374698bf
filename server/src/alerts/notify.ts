/**
 * Notifications: an alert firing or resolving (or a test), sent to each of its rule's channels.
 * A webhook gets JSON signed in `Ops-Console-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<body>">`, Slack its incoming-webhook `{ text }`, email a plain message over SMTP. Each
 * delivery is tried `attempts` times with growing waits, and what happened is kept on the alert.
 */
import { createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTransport, type Transporter } from 'nodemailer';
import { ruleValueWords, type Described } from './words.ts';
import { fetch } from 'undici';
import { checkedUrl, deliveryDispatcher, type UrlPolicy } from './destinations.ts';
import type { AlertChannelRecord, AlertNotificationRecord, AlertRecord } from '../store/types.ts';

export interface SmtpOptions {
  host: string;
  port: number;
  secure?: boolean;
  auth?: { user: string; pass: string };
  from: string;
}

export interface NotifyOptions extends UrlPolicy {
  /** Tries per delivery (default 3), waiting `backoffMs`, then 4× that, between them. */
  attempts?: number;
  backoffMs?: number;
  /** The console's address (`https://portal.example.com/ops#`): links in notifications are this and the page's path. */
  consoleUrl?: string | undefined;
  smtp?: SmtpOptions | undefined;
  clock: () => number;
}

/** What a notification says: the alert's state, its rule, scope, values, start, end and a console link. */
export function payloadOf(event: 'firing' | 'resolved' | 'test', alert: AlertRecord, rule: Described, link: string) {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'));
  return {
    status: event,
    alert: { id: alert.id, state: event === 'test' ? 'firing' : event },
    rule: { id: rule.id, name: rule.name, metric: rule.metric, window: rule.window, for: rule.for, threshold: rule.threshold },
    scope: alert.scope,
    value: alert.value,
    threshold: alert.threshold,
    startsAt: iso(alert.startedAt),
    endsAt: iso(alert.endedAt),
    link,
    text: ruleValueWords(event, rule, alert.value),
  };
}

export type Payload = ReturnType<typeof payloadOf>;

/** The signature header's value for `body` at `unixSeconds`. */
export const signatureOf = (secret: string, unixSeconds: number, body: string) =>
  `t=${unixSeconds},v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`;

export function createNotifier(options: NotifyOptions) {
  const attempts = Math.max(1, options.attempts ?? 3);
  const backoffMs = options.backoffMs ?? 1000;
  let mailer: Transporter | undefined;
  const dispatcher = deliveryDispatcher(options);
  /** Aborted when closing outlasts its grace: deliveries under way and their waits end then. */
  const stopping = new AbortController();
  const pending = new Set<Promise<unknown>>();

  async function sendOnce(channel: AlertChannelRecord, payload: Payload): Promise<void> {
    if (channel.kind === 'email') {
      if (!options.smtp) throw new Error('no SMTP server is configured (alerts.smtp)');
      mailer ??= createTransport({ host: options.smtp.host, port: options.smtp.port, secure: options.smtp.secure ?? false, auth: options.smtp.auth });
      await mailer.sendMail({
        from: options.smtp.from,
        to: channel.to,
        subject: `[${payload.status}] ${payload.rule.name}`,
        text: `${payload.text}\n\n${payload.link}\n`,
      });
      return;
    }
    const url = await checkedUrl(channel.url!, options);
    const body = JSON.stringify(channel.kind === 'slack' ? { text: `${payload.text}\n${payload.link}` } : payload);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'ops-console-alerts' };
    if (channel.secret) headers['ops-console-signature'] = signatureOf(channel.secret, Math.floor(options.clock() / 1000), body);
    // No redirects: a public URL must not lead the server somewhere internal.
    const signal = AbortSignal.any([AbortSignal.timeout(10_000), stopping.signal]);
    const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal, dispatcher });
    await response.body?.cancel();
    if (response.status < 200 || response.status > 299) throw new Error(`HTTP ${response.status}`);
  }

  /** Delivers to one channel, retrying; answers what happened. */
  async function deliver(channel: AlertChannelRecord, payload: Payload): Promise<AlertNotificationRecord> {
    const outcome = (status: 'delivered' | 'failed', tries: number, error: string | null): AlertNotificationRecord => ({
      channelId: channel.id,
      event: payload.status,
      status,
      attempts: tries,
      at: options.clock(),
      error,
    });
    let error = '';
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        await sendOnce(channel, payload);
        return outcome('delivered', attempt, null);
      } catch (cause) {
        error = reason(cause);
        if (attempt < attempts) await sleep(backoffMs * 4 ** (attempt - 1), undefined, { signal: stopping.signal }).catch(() => undefined);
        if (stopping.signal.aborted) return outcome('failed', attempt, STOPPED);
      }
    }
    return outcome('failed', attempts, error);
  }

  return {
    /** Delivers to every channel at once; answers each outcome. Tracked, so closing the server waits for them. */
    send(channels: readonly AlertChannelRecord[], payload: Payload): Promise<AlertNotificationRecord[]> {
      const work = Promise.all(channels.map((channel) => deliver(channel, payload)));
      pending.add(work);
      void work.finally(() => pending.delete(work));
      return work;
    },
    link: (path: string) => (options.consoleUrl ? `${options.consoleUrl.replace(/\/+$/, '')}${path}` : path),
    /**
     * Waits for the deliveries under way, for `graceMs` at most (default 5 s, well inside a
     * container's stop grace); then ends them, each logged as stopped, and closes the transports.
     */
    async close({ graceMs = 5_000 }: { graceMs?: number } = {}) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([Promise.allSettled([...pending]), grace]);
      clearTimeout(timer);
      stopping.abort();
      await Promise.allSettled([...pending]);
      mailer?.close();
      await dispatcher.close();
    },
  };
}

export type Notifier = ReturnType<typeof createNotifier>;

const STOPPED = 'the server stopped before it was delivered';

function reason(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const code = (cause.cause as { code?: string } | undefined)?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'EPRIVATEADDRESS') return (cause.cause as Error).message;
  if (cause.name === 'TimeoutError') return 'timed out after 10 s';
  return (code ? `${cause.message} (${code})` : cause.message).slice(0, 300);
}
