// Alert rules against known events and a clock the test moves: each metric's value computed
// here, firing and resolving at the expected evaluation, notifications at a real HTTP receiver
// (signature checked) and a real SMTP server on loopback, retries, one notification from two
// servers on the same stores, none twice after a restart, and tenancy.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { SMTPServer } from 'smtp-server';
import * as schema from '@ops-console/contract/schemas';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConsoleServer, type ConsoleServer, type ConsoleServerOptions } from '../src/index.ts';
import { createNotifier, payloadOf } from '../src/alerts/notify.ts';
import { inTurn } from '../src/alerts/evaluator.ts';
import { ADMIN_KEYS, INGEST_KEYS, TOKENS, call, freshStoreConfig, ingest, nearestRank, pct1, startServer, storeSetup, type EventInput } from './harness.ts';

const MINUTE = 60_000;
const START = Date.parse('2026-09-14T09:00:00Z');
const at = (minute: number, second = 0) => new Date(START + minute * MINUTE + second * 1000).toISOString();
const SECRET = 'whsec_0123456789abcdef';

/** A webhook receiver on loopback: what it got, answering each request with the next of `statuses` (then 200). */
async function receiver() {
  const got: { headers: IncomingMessage['headers']; body: string }[] = [];
  const statuses: number[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      got.push({ headers: request.headers, body });
      response.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, got, statuses, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** An SMTP server on loopback that keeps every message's text. */
async function smtp() {
  const mails: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, done) {
      let text = '';
      stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
      stream.on('end', () => {
        mails.push(text);
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.server.address() as AddressInfo).port, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const verified = (secret: string, header: string | string[] | undefined, body: string) => {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(header));
  return Boolean(match) && createHmac('sha256', secret).update(`${match![1]}.${body}`).digest('hex') === match![2];
};

const event = (minute: number, extra: Partial<EventInput> = {}): EventInput => ({
  ts: at(minute),
  method: 'POST',
  route: '/webhooks',
  status: 200,
  durationMs: 20,
  customerId: 'cus_acme',
  ...extra,
});

describe(`alerts (${storeSetup})`, () => {
  let now = START + 10 * MINUTE;
  let hook: Awaited<ReturnType<typeof receiver>>;
  let mail: Awaited<ReturnType<typeof smtp>>;
  let config: ConsoleServerOptions;
  let server: ConsoleServer;
  const open = (stores: ConsoleServerOptions = config): Promise<ConsoleServer> =>
    createConsoleServer({
      ...stores,
      auth: { tokens: { ...TOKENS, 'token-cus': { accountId: 'acct_a', user: { id: 'cus_acme', name: 'Acme Ltd' }, customerId: 'cus_acme' } } },
      ingestKeys: INGEST_KEYS,
      adminKeys: ADMIN_KEYS,
      clock: () => new Date(now),
      alerts: {
        evaluateEverySeconds: 0,
        allowPrivateUrls: true,
        attempts: 3,
        backoffMs: 5,
        smtp: { host: '127.0.0.1', port: mail.port, from: 'alerts@ops.test' },
      },
    } satisfies ConsoleServerOptions);
  const api = (path: string, init: { method?: string; body?: unknown; token?: string } = {}) =>
    call(server, `/console/v1${path}`, {
      token: init.token ?? 'token-a',
      method: init.method,
      body: init.body,
      headers: { 'idempotency-key': crypto.randomUUID() },
    });

  before(async () => {
    hook = await receiver();
    mail = await smtp();
    // A file, so that a restart finds what the first server wrote; on PostgreSQL, one schema for every server.
    const fresh = freshStoreConfig();
    config = storeSetup === 'DuckDB' ? { store: join(mkdtempSync(join(tmpdir(), 'ops-alerts-')), 'alerts.duckdb') } : fresh;
    server = await open();
  });
  after(async () => {
    await server.close();
    await hook.close();
    await mail.close();
  });

  let channelId: string;
  let ruleId: string;
  let endpointId: string;

  test('a webhook channel: created without answering its secret; a private URL is refused unless allowed', async () => {
    const created = await api('/alert-channels', { body: { kind: 'webhook', name: 'On-call', url: hook.url, secret: SECRET } });
    assert.equal(created.status, 201, created.text);
    assert.ok(schema.alertChannel.safeParse(created.json).success);
    assert.equal(created.json.signed, true);
    assert.ok(!created.text.includes(SECRET), 'the secret is never answered');
    channelId = created.json.id;
    assert.deepEqual(
      (await api('/alert-channels')).json.items.map((c: { id: string }) => c.id),
      [channelId],
    );
    assert.equal((await api('/alert-channels', { body: { kind: 'webhook', name: 'x', url: hook.url } })).status, 422, 'a webhook needs a secret');

    const strict = await createConsoleServer({ store: ':memory:', auth: { tokens: TOKENS } });
    try {
      const refused = await call(strict, '/console/v1/alert-channels', { token: 'token-a', body: { kind: 'slack', name: 'x', url: hook.url } });
      assert.equal(refused.status, 422);
      assert.match(refused.json.detail, /private or loopback/);
      const metadata = await call(strict, '/console/v1/alert-channels', {
        token: 'token-a',
        body: { kind: 'slack', name: 'x', url: 'http://169.254.169.254/latest' },
      });
      assert.equal(metadata.status, 422);
    } finally {
      await strict.close();
    }
  });

  test('a test notification reaches the receiver, signed', async () => {
    const sent = await api(`/alert-channels/${channelId}/test`, { body: {} });
    assert.equal(sent.status, 200, sent.text);
    assert.equal(sent.json.status, 'delivered');
    const last = hook.got.at(-1)!;
    assert.equal(JSON.parse(last.body).status, 'test');
    assert.ok(verified(SECRET, last.headers['ops-console-signature'], last.body), 'the signature verifies');
    assert.ok(!verified('another-secret-of-16', last.headers['ops-console-signature'], last.body));
  });

  test('an error-rate rule on an endpoint fires at the first evaluation past its `for`, with its value, and tells the receiver once', async () => {
    // Minutes 0–9 healthy; from minute 10 to 29, one request in three fails.
    const healthy = Array.from({ length: 10 }, (_, i) => event(i));
    const failing = Array.from({ length: 60 }, (_, i) => event(10 + Math.floor(i / 3), { status: i % 3 ? 200 : 500, durationMs: 30 + i }));
    const all = [...healthy, ...failing];
    now = START + 30 * MINUTE;
    await ingest(server, all);
    endpointId = (await api('/endpoints')).json.items.find((e: { path: string }) => e.path === '/webhooks').id;
    const created = await api('/alert-rules', {
      body: { name: 'Webhooks failing', metric: 'errorRate', scope: { endpointId }, threshold: 20, window: '5m', for: '2m', channelIds: [channelId] },
    });
    assert.equal(created.status, 201, created.text);
    ruleId = created.json.id;
    const before = hook.got.length;
    /** The error rate of the 5 minutes up to now, its end included, from the events. */
    const expectedPct = () => {
      const inWindow = all.filter((e) => Date.parse(e.ts) >= now - 5 * MINUTE && Date.parse(e.ts) <= now);
      return pct1(inWindow.filter((e) => e.status >= 500).length, inWindow.length);
    };
    const ruleNow = async () => (await api('/alert-rules')).json.items.find((r: { id: string }) => r.id === ruleId);

    // 09:10: the window [09:05, 09:10] holds one failure in 8 requests: 12.5 %, under 20 %.
    now = START + 10 * MINUTE;
    await server.alerts.runOnce();
    assert.deepEqual([(await ruleNow()).state, (await ruleNow()).value], ['ok', expectedPct()]);
    assert.equal(expectedPct(), 12.5);
    // 09:13: over (held since now), but `for` is 2 minutes: pending, and nobody is told.
    now = START + 13 * MINUTE;
    await server.alerts.runOnce();
    assert.deepEqual([(await ruleNow()).state, (await ruleNow()).value], ['pending', expectedPct()]);
    now = START + 14 * MINUTE;
    await server.alerts.runOnce();
    assert.equal((await ruleNow()).state, 'pending', 'held 1 minute of 2');
    assert.equal(hook.got.length, before, 'pending tells nobody');
    // 09:15: held for 2 minutes: it fires, once.
    now = START + 15 * MINUTE;
    await server.alerts.runOnce();
    assert.equal((await ruleNow()).state, 'firing');
    const fired = hook.got.slice(before);
    assert.equal(fired.length, 1);
    const payload = JSON.parse(fired[0]!.body);
    assert.equal(payload.status, 'firing');
    assert.equal(payload.value, expectedPct());
    assert.deepEqual(payload.scope, { endpointId });
    assert.equal(payload.rule.name, 'Webhooks failing');
    assert.equal(payload.startsAt, new Date(now).toISOString().replace('.000Z', 'Z'));
    assert.equal(payload.endsAt, null);
    assert.equal(payload.link, `/endpoints/${endpointId}`);
    assert.ok(verified(SECRET, fired[0]!.headers['ops-console-signature'], fired[0]!.body));

    // Evaluated again while still firing: no second notification.
    now = START + 16 * MINUTE;
    await server.alerts.runOnce();
    assert.equal((await ruleNow()).state, 'firing');
    assert.equal(hook.got.length, before + 1);

    const alerts = await api('/alerts?state=firing');
    assert.ok(schema.alertPage.safeParse(alerts.json).success, alerts.text);
    assert.equal(alerts.json.items.length, 1);
    assert.deepEqual(
      alerts.json.items[0].notifications.map((n: { event: string; status: string }) => [n.event, n.status]),
      [['firing', 'delivered']],
    );
    const feed = await api('/activity?limit=5');
    assert.ok(
      feed.json.items.some((i: { kind: string; text: string }) => i.kind === 'alert-firing' && /Alert “Webhooks failing” is firing: error rate/.test(i.text)),
    );
  });

  test('after a restart on the same stores it does not fire again; two servers evaluating at once send one notification', async () => {
    const before = hook.got.length;
    await server.close();
    server = await open();
    // A second server on the same PostgreSQL schema; DuckDB has one writer, so there the second shares the first's stores.
    const second = await open(storeSetup === 'DuckDB' ? { store: { ...server.stores, close: async () => {} } } : config);
    try {
      now = START + 20 * MINUTE;
      await Promise.all([server.alerts.runOnce(), second.alerts.runOnce()]);
      assert.equal(hook.got.length, before, 'still firing: nobody told twice');
      // The errors leave the window: one server resolves it, one notification says so.
      now = START + 40 * MINUTE;
      await Promise.all([server.alerts.runOnce(), second.alerts.runOnce()]);
      const resolved = hook.got.slice(before);
      assert.equal(resolved.length, 1, 'one resolve notification from two servers');
      assert.equal(JSON.parse(resolved[0]!.body).status, 'resolved');
      assert.notEqual(JSON.parse(resolved[0]!.body).endsAt, null);
    } finally {
      await second.close();
    }
    const history = await api(`/alerts?ruleId=${ruleId}`);
    assert.deepEqual(
      history.json.items.map((a: { state: string }) => a.state),
      ['resolved'],
    );
    assert.deepEqual(
      history.json.items[0].notifications.map((n: { event: string }) => n.event),
      ['firing', 'resolved'],
    );
  });

  test('each metric’s value is what the events say: p95, p99, requests above and below, and a spike against four weeks', async () => {
    // Fresh events on another route, minutes 60–64, and the same window one to four weeks before.
    const durations = [12, 40, 7, 93, 55, 61, 18, 240, 33, 71, 9, 150];
    const recent = durations.map((d, i) => event(60 + (i % 5), { route: '/usage', method: 'GET', durationMs: d }));
    const WEEK = 7 * 24 * 60;
    const history = [1, 2, 3, 4].flatMap((w) => Array.from({ length: w }, (_, i) => event(60 - w * WEEK + i, { route: '/usage', method: 'GET' })));
    now = START + 65 * MINUTE - 1000;
    await ingest(server, [...recent, ...history]);
    const usage = (await api('/endpoints')).json.items.find((e: { path: string }) => e.path === '/usage').id;
    const expected = {
      p95: nearestRank(durations, 95),
      p99: nearestRank(durations, 99),
      requestsAbove: durations.length,
      requestsBelow: durations.length,
      // 12 requests against an average of (1 + 2 + 3 + 4) / 4 = 2.5 in the same window of the four weeks before.
      spike: Math.round((durations.length / 2.5) * 100) / 100,
    };
    const ids: Record<string, string> = {};
    for (const metric of Object.keys(expected)) {
      const created = await api('/alert-rules', {
        body: { name: metric, metric, scope: { endpointId: usage }, threshold: metric === 'requestsBelow' ? 20 : 1e9, window: '5m' },
      });
      assert.equal(created.status, 201, created.text);
      ids[metric] = created.json.id;
    }
    await server.alerts.runOnce();
    const rules = new Map((await api('/alert-rules')).json.items.map((r: { id: string }) => [r.id, r]));
    for (const [metric, value] of Object.entries(expected)) assert.equal((rules.get(ids[metric]!) as { value: number }).value, value, metric);
    // 12 requests is below 20: that rule fires at once (no `for`, no channel); the others hold.
    assert.equal((rules.get(ids['requestsBelow']!) as { state: string }).state, 'firing');
    assert.equal((rules.get(ids['p95']!) as { state: string }).state, 'ok');
  });

  test('a failing receiver is retried and the outcome logged; email arrives at the SMTP server', async () => {
    const email = await api('/alert-channels', { body: { kind: 'email', name: 'Ops mail', to: 'ops@example.com' } });
    assert.equal(email.status, 201, email.text);
    hook.statuses.push(500, 503);
    const before = hook.got.length;
    const rule = await api('/alert-rules', {
      body: { name: 'Any traffic', metric: 'requestsAbove', threshold: 0, window: '1h', channelIds: [channelId, email.json.id] },
    });
    await server.alerts.runOnce();
    assert.equal(hook.got.length, before + 3, 'two failures, then delivered');
    const [alert] = (await api(`/alerts?ruleId=${rule.json.id}`)).json.items;
    const byChannel = Object.fromEntries(alert.notifications.map((n: { channelId: string }) => [n.channelId, n]));
    assert.deepEqual([byChannel[channelId].status, byChannel[channelId].attempts], ['delivered', 3]);
    assert.deepEqual([byChannel[email.json.id].status, byChannel[email.json.id].attempts], ['delivered', 1]);
    assert.ok(mail.mails.some((m) => /Subject: \[firing\] Any traffic/.test(m) && /ops@example\.com/.test(m)));

    // A receiver that keeps failing: three attempts, then failed with the reason.
    hook.statuses.push(500, 500, 500);
    const down = await api('/alert-rules', { body: { name: 'Down', metric: 'requestsAbove', threshold: 0, window: '2h', channelIds: [channelId] } });
    await server.alerts.runOnce();
    const [failed] = (await api(`/alerts?ruleId=${down.json.id}`)).json.items;
    assert.deepEqual([failed.notifications[0].status, failed.notifications[0].attempts, failed.notifications[0].error], ['failed', 3, 'HTTP 500']);
  });

  test('a silenced rule fires and resolves as ever, but tells no channel until its silence ends', async () => {
    const before = hook.got.length;
    const until = new Date(now + 3_600_000).toISOString().replace('.000Z', 'Z');
    const rule = await api('/alert-rules', {
      body: { name: 'Quiet', metric: 'requestsAbove', threshold: 0, window: '3h', channelIds: [channelId], silencedUntil: until },
    });
    assert.equal(rule.json.silencedUntil, until);
    await server.alerts.runOnce();
    const [alert] = (await api(`/alerts?ruleId=${rule.json.id}`)).json.items;
    assert.equal(alert.state, 'firing');
    assert.deepEqual(
      alert.notifications.map((n: { status: string; attempts: number }) => [n.status, n.attempts]),
      [['silenced', 0]],
    );
    assert.equal(hook.got.length, before, 'nobody was told');
    const lifted = await api(`/alert-rules/${rule.json.id}`, { method: 'PATCH', body: { silencedUntil: null } });
    assert.equal(lifted.json.silencedUntil, null);
  });

  test('another account sees none of it, and a customer’s token is refused', async () => {
    for (const path of ['/alert-channels', '/alert-rules', '/alerts']) assert.deepEqual((await api(path, { token: 'token-b' })).json.items, []);
    assert.equal((await api(`/alert-rules/${ruleId}`, { token: 'token-b', method: 'DELETE', body: {} })).status, 404);
    assert.equal((await api(`/alert-channels/${channelId}/test`, { token: 'token-b', body: {} })).status, 404);
    assert.equal((await api('/alert-rules', { token: 'token-cus' })).status, 403);
    assert.equal((await api('/alerts', { token: 'token-cus' })).status, 403);
  });

  test('an SLO: its good share, budget left and burn rates from the events; a fast burn fires, and resolves once it stops', async () => {
    const now0 = START + 300 * MINUTE;
    const DAY = 24 * 60;
    const slo = (minutesAgo: number, status = 200) => event(300 - minutesAgo, { route: '/slo-check', method: 'GET', status });
    const events = [
      ...Array.from({ length: 200 }, (_, i) => slo(DAY + i * 40)),
      ...Array.from({ length: 40 }, (_, i) => slo(59 - i, i % 10 === 0 ? 500 : 200)),
      ...Array.from({ length: 10 }, (_, i) => slo(4 - (i % 5), i % 2 ? 500 : 200)),
    ];
    now = now0;
    await ingest(server, events);
    const endpoint = (await api('/endpoints')).json.items.find((e: { path: string }) => e.path === '/slo-check').id;
    const channel = await api('/alert-channels', { body: { kind: 'webhook', name: 'SRE', url: hook.url, secret: SECRET } });
    const created = await api('/slos', {
      body: {
        name: 'Checks available',
        objective: 'availability',
        targetPct: 99.5,
        period: '7d',
        scope: { endpointId: endpoint },
        channelIds: [channel.json.id],
      },
    });
    assert.equal(created.status, 201, created.text);
    assert.ok(schema.slo.safeParse(created.json).success, created.text);
    const id = created.json.id;

    const within = (minutes: number) => events.filter((e) => Date.parse(e.ts) >= now - minutes * MINUTE && Date.parse(e.ts) <= now);
    const budget = 0.005;
    const burn = (minutes: number) => {
      const inWindow = within(minutes);
      return inWindow.length ? Math.round((inWindow.filter((e) => e.status >= 500).length / inWindow.length / budget) * 100) / 100 : null;
    };
    const week = within(7 * DAY);
    const bad = week.filter((e) => e.status >= 500).length;
    const detail = await api(`/slos/${id}`);
    assert.ok(schema.sloDetail.safeParse(detail.json).success, detail.text);
    assert.deepEqual([detail.json.requests, detail.json.badRequests], [week.length, bad]);
    assert.equal(detail.json.sliPct, Math.round((100 - (100 * bad) / week.length) * 100) / 100);
    assert.equal(detail.json.budgetRemainingPct, Math.round((1 - bad / week.length / budget) * 1000) / 10);
    assert.deepEqual(detail.json.burnRates, { '5m': burn(5), '30m': burn(30), '1h': burn(60), '6h': burn(360), '3d': burn(3 * DAY) });
    assert.equal(detail.json.budgetOverTime.days.length, 7);
    assert.equal(detail.json.budgetOverTime.remainingPct.at(-1), detail.json.budgetRemainingPct);

    // Over 14.4× in both the hour and the 5 minutes: it fires, and the channel is told.
    assert.ok(burn(60)! > 14.4 && burn(5)! > 14.4);
    const before = hook.got.length;
    await server.alerts.runOnce();
    assert.equal((await api(`/slos/${id}`)).json.state, 'firing');
    const told = hook.got
      .slice(before)
      .map((g) => JSON.parse(g.body))
      .filter((p) => p.rule.id === id);
    assert.deepEqual(
      told.map((p) => [p.status, p.rule.metric, p.rule.window, p.threshold]),
      [['firing', 'burnRate', '1h and 5m', 14.4]],
    );
    assert.equal(told[0].value, burn(60));

    // Seven hours on, no window short enough to page burns (the 6-hour one holds no request): resolved.
    now = now0 + 7 * 60 * MINUTE;
    await server.alerts.runOnce();
    assert.equal((await api(`/slos/${id}`)).json.state, 'ok');
    // (The other rules of the account resolve too by now: only this SLO's notifications are counted.)
    assert.deepEqual(
      hook.got
        .slice(before)
        .map((g) => JSON.parse(g.body))
        .filter((p) => p.rule.id === id)
        .map((p) => p.status),
      ['firing', 'resolved'],
    );
    assert.equal((await api(`/slos/${id}`, { method: 'DELETE', body: {} })).json.id, id);
    assert.equal((await api(`/slos/${id}`)).status, 404);
  });

  test('the slower burn-rate alerts: 6× over 6h and 30m, and 1× over 3d and 6h, each named in its notification; Slack gets text', async () => {
    const slack = await api('/alert-channels', { body: { kind: 'slack', name: 'Ops room', url: hook.url } });
    assert.equal(slack.status, 201, slack.text);
    const now0 = START + 20 * 24 * 60 * MINUTE;
    const mins = (m: number) => new Date(now0 - m * MINUTE).toISOString();
    // Route /steady: 5 % of requests fail, every 10 minutes for a day: 10× the budget everywhere, short of 14.4×.
    // Route /slow-leak: 1.5 % fail over three days: 3× the budget, short of 6×.
    const steady = Array.from({ length: 144 }, (_, i) =>
      Array.from({ length: 20 }, (_, j) => ({ ...event(0, { route: '/steady', method: 'GET', status: j === 0 ? 500 : 200 }), ts: mins(i * 10 + j * 0.1) })),
    ).flat();
    const leak = Array.from({ length: 432 }, (_, i) =>
      Array.from({ length: 200 }, (_, j) => ({ ...event(0, { route: '/slow-leak', method: 'GET', status: j < 3 ? 500 : 200 }), ts: mins(i * 10 + j * 0.01) })),
    ).flat();
    now = now0;
    for (let i = 0; i < leak.length; i += 10_000) await ingest(server, leak.slice(i, i + 10_000));
    await ingest(server, steady);
    const endpoints = (await api('/endpoints')).json.items as { id: string; path: string }[];
    const idOf = (path: string) => endpoints.find((e) => e.path === path)!.id;
    const before = hook.got.length;
    const make = async (name: string, path: string) =>
      (
        await api('/slos', {
          body: { name, objective: 'availability', targetPct: 99.5, period: '7d', scope: { endpointId: idOf(path) }, channelIds: [slack.json.id] },
        })
      ).json;
    const steadySlo = await make('Steady', '/steady');
    const leakSlo = await make('Leak', '/slow-leak');
    /** A window's burn rate from the events: its share of failures over the 0.5 % budget. */
    const burn = (events: EventInput[], minutes: number) => {
      const inWindow = events.filter((e) => Date.parse(e.ts) >= now - minutes * MINUTE && Date.parse(e.ts) <= now);
      return Math.round((inWindow.filter((e) => e.status >= 500).length / inWindow.length / 0.005) * 100) / 100;
    };
    assert.deepEqual(steadySlo.burnRates, {
      '5m': burn(steady, 5),
      '30m': burn(steady, 30),
      '1h': burn(steady, 60),
      '6h': burn(steady, 360),
      '3d': burn(steady, 4320),
    });
    assert.deepEqual(leakSlo.burnRates, { '5m': burn(leak, 5), '30m': burn(leak, 30), '1h': burn(leak, 60), '6h': burn(leak, 360), '3d': burn(leak, 4320) });
    // Which alert each should raise, from those figures: the first whose long and short windows both burn faster than its rate.
    assert.ok(!(burn(steady, 60) > 14.4 && burn(steady, 5) > 14.4) && burn(steady, 360) > 6 && burn(steady, 30) > 6);
    assert.ok(!(burn(leak, 360) > 6 && burn(leak, 30) > 6) && burn(leak, 4320) > 1 && burn(leak, 360) > 1);
    await server.alerts.runOnce();
    // (Other rules of the account change state at this time too: only these two SLOs' messages are counted.)
    const told = hook.got
      .slice(before)
      .map((g) => JSON.parse(g.body) as { text: string })
      .filter((t) => /“(Steady|Leak)”/.test(t.text));
    assert.equal(told.length, 2, 'one Slack message each');
    const texts = told.map((t) => t.text.split('\n')[0]).sort();
    assert.deepEqual(texts, [
      `Alert “Leak” is firing: error budget burn rate ${burn(leak, 4320)}× over 3d and 6h, above 1×.`,
      `Alert “Steady” is firing: error budget burn rate ${burn(steady, 360)}× over 6h and 30m, above 6×.`,
    ]);
    assert.ok(
      told.every((t) => Object.keys(t).join() === 'text'),
      'Slack gets its incoming-webhook payload',
    );

    // Four days on, nothing burns: each resolves, named by the tier it fired on (not the fastest one).
    const firedAt = hook.got.length;
    // With no request left in their windows, each says the rate it fired at.
    const [leakRate, steadyRate] = [burn(leak, 4320), burn(steady, 360)];
    now = now0 + 4 * 24 * 60 * MINUTE;
    await server.alerts.runOnce();
    const resolved = hook.got
      .slice(firedAt)
      .map((g) => (JSON.parse(g.body) as { text: string }).text.split('\n')[0]!)
      .filter((t) => /“(Steady|Leak)”/.test(t))
      .sort();
    assert.deepEqual(resolved, [
      `Alert “Leak” resolved: error budget burn rate ${leakRate}× over 3d and 6h.`,
      `Alert “Steady” resolved: error budget burn rate ${steadyRate}× over 6h and 30m.`,
    ]);
  });

  test('a rule is changed and removed; a channel too', async () => {
    const changed = await api(`/alert-rules/${ruleId}`, { method: 'PATCH', body: { threshold: 50 } });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.json.threshold, 50);
    assert.equal((await api(`/alert-rules/${ruleId}`, { method: 'PATCH', body: { window: '30s' } })).status, 422);
    assert.equal((await api(`/alert-rules/${ruleId}`, { method: 'DELETE', body: {} })).json.id, ruleId);
    assert.ok(!(await api('/alert-rules')).json.items.some((r: { id: string }) => r.id === ruleId));
    assert.equal((await api(`/alert-channels/${channelId}`, { method: 'PATCH', body: { name: 'Pager' } })).json.name, 'Pager');
    assert.equal((await api(`/alert-channels/${channelId}`, { method: 'DELETE', body: {} })).status, 200);
    assert.equal((await api(`/alert-channels/${channelId}/test`, { body: {} })).status, 404);
  });
});

describe('alerts: what a review found, each fixed', () => {
  let server: ConsoleServer;
  let now = START + 30 * MINUTE;
  const api = (path: string, init: { method?: string; body?: unknown } = {}) =>
    call(server, `/console/v1${path}`, { token: 'token-a', method: init.method, body: init.body, headers: { 'idempotency-key': crypto.randomUUID() } });
  let endpointId: string;
  const events = [
    ...Array.from({ length: 6 }, (_, i) => event(28 + (i % 2), { route: '/a' })),
    ...Array.from({ length: 4 }, (_, i) => event(28 + (i % 2), { route: '/b' })),
  ];

  before(async () => {
    server = await createConsoleServer({
      ...freshStoreConfig(),
      auth: { tokens: TOKENS },
      ingestKeys: INGEST_KEYS,
      clock: () => new Date(now),
      alerts: { evaluateEverySeconds: 0, allowPrivateUrls: false },
    });
    await ingest(server, events);
    endpointId = (await api('/endpoints')).json.items.find((e: { path: string }) => e.path === '/a').id;
  });
  after(() => server.close());

  test('a rule whose endpoint scope is taken away counts the whole account again', async () => {
    const rule = await api('/alert-rules', { body: { name: 'Volume', metric: 'requestsAbove', scope: { endpointId }, threshold: 1000, window: '5m' } });
    await server.alerts.runOnce();
    assert.equal((await api('/alert-rules')).json.items[0].value, 6);
    await api(`/alert-rules/${rule.json.id}`, { method: 'PATCH', body: { scope: {} } });
    now += MINUTE;
    await server.alerts.runOnce();
    assert.equal((await api('/alert-rules')).json.items[0].value, events.length);
    await api(`/alert-rules/${rule.json.id}`, { method: 'DELETE' });
  });

  test('an evaluation that lost its claim (the rule changed meanwhile) saves nothing', async () => {
    const rule = await api('/alert-rules', { body: { name: 'Claimed', metric: 'requestsAbove', threshold: 0, window: '5m' } });
    const until = now + 30_000;
    const [claimed] = await server.stores.records.claimDueRules(now, until);
    assert.equal(claimed!.rule?.id, rule.json.id);
    await api(`/alert-rules/${rule.json.id}`, { method: 'PATCH', body: { name: 'Claimed, renamed' } });
    const fired = { holdingSince: now, value: 10, evaluatedAt: now, alertId: 'alert_stale' };
    assert.equal(await server.stores.records.saveAlertRuleState('acct_a', rule.json.id, fired, until), false);
    assert.equal((await api('/alert-rules')).json.items[0].state, 'ok');
    await api(`/alert-rules/${rule.json.id}`, { method: 'DELETE' });
  });

  test('notifications added after a resolve leave the alert resolved', async () => {
    const alert = {
      id: 'alert_x',
      ruleId: 'rule_x',
      ruleName: 'X',
      metric: 'errorRate' as const,
      scope: {},
      value: 9,
      threshold: 5,
      startedAt: now,
      notifications: [],
    };
    await server.stores.records.saveAlert('acct_a', { ...alert, state: 'firing', endedAt: null });
    await server.stores.records.saveAlert('acct_a', { ...alert, state: 'resolved', endedAt: now + 1 });
    const delivered = { channelId: 'ch_x', event: 'firing' as const, status: 'delivered' as const, attempts: 1, at: now, error: null };
    await server.stores.records.atomically((records) => records.appendNotifications('acct_a', 'alert_x', [delivered]));
    const stored = await server.stores.records.alert('acct_a', 'alert_x');
    assert.deepEqual([stored!.state, stored!.notifications.length], ['resolved', 1]);
  });

  test('a Slack URL is its credential: only its origin is answered; URLs with passwords and NAT64 loopback are refused', async () => {
    // Stored as a POST would (a POST resolves the host, which needs the network).
    await server.stores.records.upsertAlertChannel('acct_a', {
      id: 'ch_slack',
      kind: 'slack',
      name: 'Ops',
      url: 'https://hooks.slack.com/services/T000/B000/XXXXsecret',
      createdAt: now,
    });
    const listed = await api('/alert-channels');
    assert.equal(listed.json.items.find((c: { id: string }) => c.id === 'ch_slack').url, 'https://hooks.slack.com/…');
    assert.ok(!listed.text.includes('XXXXsecret'));
    assert.ok(!(await api('/alert-channels/ch_slack', { method: 'PATCH', body: { name: 'Ops room' } })).text.includes('XXXXsecret'));
    await api('/alert-channels/ch_slack', { method: 'DELETE' });
    const withPassword = await api('/alert-channels', {
      body: { kind: 'webhook', name: 'x', url: 'https://user:pass@hooks.example.com/x', secret: 'whsec_0123456789abcdef' },
    });
    assert.equal(withPassword.status, 422);
    for (const url of ['http://[64:ff9b::7f00:1]/x', 'http://[::7f00:1]/x', 'http://[::ffff:127.0.0.1]/x'])
      assert.equal((await api('/alert-channels', { body: { kind: 'slack', name: 'x', url } })).status, 422, url);
  });

  test('closing ends a delivery to a receiver that never answers after its grace, and logs it as stopped', async () => {
    // A receiver that takes the request and never answers it.
    const hanging = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const notifier = createNotifier({ allowPrivateUrls: true, attempts: 3, backoffMs: 5, clock: () => now });
    const channel = {
      id: 'ch_hang',
      kind: 'webhook' as const,
      name: 'Hangs',
      url: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/`,
      createdAt: now,
    };
    const alert = {
      id: 'alert_h',
      ruleId: 'rule_h',
      ruleName: 'H',
      metric: 'errorRate' as const,
      scope: {},
      state: 'firing' as const,
      value: 9,
      threshold: 5,
      startedAt: now,
      endedAt: null,
      notifications: [],
    };
    const sent = notifier.send(
      [channel],
      payloadOf('firing', alert, { id: 'rule_h', name: 'H', metric: 'errorRate', window: '5m', for: '0m', threshold: 5 }, '/'),
    );
    await notifier.close({ graceMs: 50 });
    const [outcome] = await sent;
    assert.deepEqual([outcome!.status, outcome!.attempts, outcome!.error], ['failed', 1, 'the server stopped before it was delivered']);
    hanging.closeAllConnections();
    await new Promise((resolve) => hanging.close(resolve));
  });

  test('a public IPv4 address is a valid destination (IPv4-mapped IPv6 loopback is not)', async () => {
    const made = await api('/alert-channels', { body: { kind: 'webhook', name: 'By address', url: 'http://93.184.216.34/hook', secret: SECRET } });
    assert.equal(made.status, 201, made.text);
    await api(`/alert-channels/${made.json.id}`, { method: 'DELETE' });
    assert.equal((await api('/alert-channels', { body: { kind: 'slack', name: 'x', url: 'http://[::ffff:7f00:1]/x' } })).status, 422);
  });

  test('a name that resolves inward after its checks (DNS rebinding) is refused as the delivery connects', async () => {
    const hook = await receiver();
    // Public when the channel is created and when the delivery checks it; loopback when it connects.
    let lookups = 0;
    const rebinding = await createConsoleServer({
      ...freshStoreConfig(),
      auth: { tokens: TOKENS },
      ingestKeys: INGEST_KEYS,
      clock: () => new Date(now),
      alerts: {
        evaluateEverySeconds: 0,
        allowPrivateUrls: false,
        attempts: 1,
        resolve: () => Promise.resolve(lookups++ < 2 ? ['93.184.216.34'] : ['127.0.0.1']),
      },
    });
    try {
      const post = (path: string, body: unknown) =>
        call(rebinding, `/console/v1${path}`, { token: 'token-a', body, headers: { 'idempotency-key': crypto.randomUUID() } });
      const channel = await post('/alert-channels', {
        kind: 'webhook',
        name: 'Rebound',
        url: `http://rebound.example:${new URL(hook.url).port}/hook`,
        secret: SECRET,
      });
      assert.equal(channel.status, 201, channel.text);
      const sent = await post(`/alert-channels/${channel.json.id}/test`, {});
      assert.equal(sent.json.status, 'failed', sent.text);
      assert.match(sent.json.error, /rebound\.example resolved to a private or loopback address/);
      assert.equal(lookups, 3);
      assert.equal(hook.got.length, 0, 'nothing reached the loopback receiver');
    } finally {
      await rebinding.close();
      await hook.close();
    }
  });

  test('a removed channel leaves its rules editable; a changed condition ends the firing alert', async () => {
    const stores = server.stores;
    await stores.records.upsertAlertChannel('acct_a', {
      id: 'ch_gone',
      kind: 'webhook',
      name: 'Gone',
      url: 'https://hooks.example.com/x',
      secret: 'whsec_0123456789abcdef',
      createdAt: now,
    });
    const rule = await api('/alert-rules', { body: { name: 'Busy', metric: 'requestsAbove', threshold: 0, window: '5m', channelIds: ['ch_gone'] } });
    assert.equal(rule.status, 201, rule.text);
    await api('/alert-channels/ch_gone', { method: 'DELETE' });
    const renamed = await api(`/alert-rules/${rule.json.id}`, { method: 'PATCH', body: { name: 'Busy API' } });
    assert.equal(renamed.status, 200, renamed.text);
    assert.deepEqual(renamed.json.channelIds, []);
    await server.alerts.runOnce();
    assert.equal((await api('/alert-rules')).json.items.find((r: { id: string }) => r.id === rule.json.id).state, 'firing');
    const changed = await api(`/alert-rules/${rule.json.id}`, { method: 'PATCH', body: { threshold: 1000 } });
    assert.equal(changed.json.state, 'ok');
    const [alert] = (await api(`/alerts?ruleId=${rule.json.id}`)).json.items;
    assert.equal(alert.state, 'resolved');
  });
});

test('GET /slos reads every SLO’s figures in one pass, each what the events say for its scope, objective and period', async () => {
  const now = START + 10 * 24 * 60 * MINUTE;
  const server = await startServer({ clock: () => new Date(now), alerts: { evaluateEverySeconds: 0 } });
  try {
    const minutesAgo = (m: number) => new Date(now - m * MINUTE).toISOString();
    const events: EventInput[] = [];
    for (let i = 0; i < 120; i++)
      events.push({
        ts: minutesAgo([2, 20, 50, 300, 2_000, 8_000, 12_000, 40_000][i % 8]! + (i % 3)),
        method: i % 2 ? 'GET' : 'POST',
        route: i % 2 ? '/contacts/{id}' : '/messages',
        status: i % 7 === 0 ? 503 : 200,
        durationMs: (i * 37) % 180,
        apiVersion: 'v1',
        ...(i % 3 ? { customerId: i % 3 === 1 ? 'cus_acme' : 'cus_globex' } : {}),
      });
    await ingest(server, events);
    const api = (path: string, body?: unknown) =>
      call(server, `/console/v1${path}`, { token: 'token-a', body, headers: { 'idempotency-key': crypto.randomUUID() } });
    const messages = (await api('/endpoints')).json.items.find((e: { path: string }) => e.path === '/messages').id as string;
    const plans = [
      { name: 'All', objective: 'availability', targetPct: 99, period: '7d', scope: {} },
      { name: 'Messages', objective: 'availability', targetPct: 95, period: '30d', scope: { endpointId: messages } },
      { name: 'Acme fast', objective: 'latency', thresholdMs: 100, targetPct: 90, period: '7d', scope: { customerId: 'cus_acme' } },
      { name: 'Acme messages', objective: 'latency', thresholdMs: 50, targetPct: 80, period: '28d', scope: { endpointId: messages, customerId: 'cus_acme' } },
    ];
    for (const plan of plans) assert.equal((await api('/slos', { ...plan, channelIds: [] })).status, 201);
    const PERIODS: Record<string, number> = { '5m': 5, '30m': 30, '1h': 60, '6h': 360, '3d': 4_320, '7d': 10_080, '28d': 40_320, '30d': 43_200 };
    const list = (await api('/slos')).json.items as {
      name: string;
      id: string;
      requests: number;
      badRequests: number;
      burnRates: Record<string, number | null>;
    }[];
    assert.equal(list.length, plans.length);
    for (const plan of plans) {
      const item = list.find((s) => s.name === plan.name)!;
      const scoped = events.filter(
        (e) => (!plan.scope.endpointId || e.route === '/messages') && (!plan.scope.customerId || e.customerId === plan.scope.customerId),
      );
      const inWindow = (window: string) => scoped.filter((e) => Date.parse(e.ts) >= now - PERIODS[window]! * MINUTE && Date.parse(e.ts) <= now);
      const isBad = (e: EventInput) => (plan.objective === 'latency' ? e.durationMs > plan.thresholdMs! : e.status >= 500);
      const period = inWindow(plan.period);
      assert.deepEqual([item.requests, item.badRequests], [period.length, period.filter(isBad).length], plan.name);
      const budget = (100 - plan.targetPct) / 100;
      for (const window of ['5m', '30m', '1h', '6h', '3d']) {
        const seen = inWindow(window);
        const expected = seen.length ? Math.round((seen.filter(isBad).length / seen.length / budget) * 100) / 100 : null;
        assert.equal(item.burnRates[window], expected, `${plan.name} over ${window}`);
      }
      const detail = (await api(`/slos/${item.id}`)).json;
      assert.deepEqual([detail.requests, detail.badRequests, detail.burnRates], [item.requests, item.badRequests, item.burnRates]);
    }
  } finally {
    await server.close();
  }
});

describe('alerts cost what an account may ask', () => {
  const owner = { 'token-viewer': { accountId: 'acct_a', user: { id: 'u_vi', name: 'Vi Nguyen' }, role: 'viewer' as const } };
  const startCapped = (extra: Partial<ConsoleServerOptions> = {}) =>
    startServer({
      auth: { tokens: { ...TOKENS, ...owner } },
      alerts: { evaluateEverySeconds: 0, allowPrivateUrls: true, caps: { rules: 2, slos: 1, channels: 1 } },
      ...extra,
    });
  const api = (server: ConsoleServer, path: string, body?: unknown, token = 'token-a') =>
    call(server, `/console/v1${path}`, { token, body, headers: { 'idempotency-key': crypto.randomUUID() } });
  const rule = (extra: Record<string, unknown> = {}) => ({ name: 'Errors', metric: 'errorRate', threshold: 5, window: '5m', ...extra });

  test('rules, SLOs and channels are capped per account, with a 409 that says so', async () => {
    const server = await startCapped();
    try {
      assert.deepEqual([(await api(server, '/alert-rules', rule())).status, (await api(server, '/alert-rules', rule())).status], [201, 201]);
      const third = await api(server, '/alert-rules', rule());
      assert.deepEqual([third.status, third.json.detail], [409, 'This account has 2 alert rules, the most it may have (2): remove one first.']);
      const slo = { name: 'Up', objective: 'availability', targetPct: 99, period: '7d', scope: {}, channelIds: [] };
      assert.deepEqual([(await api(server, '/slos', slo)).status, (await api(server, '/slos', slo)).status], [201, 409]);
      const channel = { kind: 'webhook', name: 'Ops', url: 'http://127.0.0.1:9/hook', secret: 'a-secret-of-16-chars' };
      assert.deepEqual([(await api(server, '/alert-channels', channel)).status, (await api(server, '/alert-channels', channel)).status], [201, 409]);
      assert.equal((await api(server, '/alert-rules', rule(), 'token-b')).status, 201, 'another account has its own');
      assert.equal((await api(server, '/alert-rules')).json.items.length, 2);
    } finally {
      await server.close();
    }
  });

  test('each metric reads at most its window, and a condition holds at most a day before it fires', async () => {
    const server = await startCapped({ alerts: { evaluateEverySeconds: 0, caps: { rules: 10 } } });
    try {
      const refused = await api(server, '/alert-rules', rule({ metric: 'p95', threshold: 300, window: '2d' }));
      assert.deepEqual([refused.status, refused.json.errors], [422, [{ field: 'window', message: 'at most 1d' }]]);
      assert.equal((await api(server, '/alert-rules', rule({ window: '9999d' }))).status, 422);
      assert.equal((await api(server, '/alert-rules', rule({ window: '7d' }))).status, 201);
      assert.deepEqual((await api(server, '/alert-rules', rule({ for: '2d' }))).json.errors, [{ field: 'for', message: 'at most 1d' }]);
    } finally {
      await server.close();
    }
  });

  test('a cycle evaluates the accounts’ rules in turn, not one account’s all first', () => {
    const due = ['a1', 'a2', 'a3', 'b1', 'a4', 'c1', 'c2'].map((id) => ({ accountId: id[0]!, id }));
    assert.deepEqual(
      inTurn(due).map((d) => d.id),
      ['a1', 'b1', 'c1', 'a2', 'c2', 'a3', 'a4'],
    );
  });

  test('viewers see only where a channel sends; the channel test sends a fixed text, at most 5 a minute', async () => {
    const hook = await receiver();
    const server = await startCapped({ alerts: { evaluateEverySeconds: 0, allowPrivateUrls: true, caps: { channels: 5 } } });
    try {
      const created = await api(server, '/alert-channels', {
        kind: 'webhook',
        name: 'Buy cheap watches at spam.example',
        url: `${hook.url}/api/webhooks/123/t0ken?thread=9`,
        secret: 'a-secret-of-16-chars',
      });
      assert.equal(created.status, 201);
      const seen = async (token: string) => (await api(server, '/alert-channels', undefined, token)).json.items[0].url as string;
      assert.equal(await seen('token-viewer'), `${new URL(hook.url).origin}/…`);
      assert.equal(await seen('token-a'), `${hook.url}/api/webhooks/123/t0ken?thread=9`, 'an editor, who may change it, sees it whole');
      const tests = [];
      for (let i = 0; i < 6; i++) tests.push((await api(server, `/alert-channels/${created.json.id}/test`, {})).status);
      assert.deepEqual(tests, [200, 200, 200, 200, 200, 429]);
      assert.equal(hook.got.length, 5);
      for (const { body } of hook.got) {
        assert.equal(JSON.parse(body).rule.name, 'Test notification from Ops Console');
        assert.doesNotMatch(body, /cheap watches/);
      }
    } finally {
      await server.close();
      await hook.close();
    }
  });
});
