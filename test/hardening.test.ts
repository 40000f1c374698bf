/**
 * The bad-input matrix: every element × every kind of bad answer, generated from the two
 * tables below (a new element or case is one line). Each ends in a clear state — the error
 * with Retry, or a neutral rendering — with no uncaught exception or unhandled rejection, and
 * Retry succeeds once the server recovers.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { bypass, delay, http, HttpResponse, type RequestHandler } from 'msw';
import '../src/all.ts';
import { allowVirtualizerResizeNotice, waitFor } from './dom.ts';
import { API_BASE, scenarios, useMockApi } from './mock-api.ts';
import { chartsInside, ELEMENTS, watchTimers, type DrawnChart, type ElementCase } from './harness.ts';

const ALL = `*${API_BASE}/*`;
/** Answers with the real fixture body after `change` rewrites it. */
const rewrite = (change: (body: unknown) => unknown): RequestHandler[] => [
  http.get(ALL, async ({ request }) => {
    const real = await fetch(bypass(request));
    return HttpResponse.json(change(await real.json()) as Record<string, unknown>);
  }),
];

const ENUM_KEYS = new Set(['status', 'state', 'kind', 'method', 'unit']);
const TEXT_KEYS = new Set(['name', 'ruleName', 'text', 'path', 'label', 'title', 'group', 'notes', 'plan', 'endpoint', 'version']);
function mapDeep(value: unknown, fn: (key: string, v: unknown) => unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => mapDeep(v, fn, key));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapDeep(fn(k, v), fn, k)]));
  return value;
}
const UNKNOWN = 'Zzz-unknown';
const PAYLOAD = '<img src=x onerror="window.__xss=1">javascript:alert(1)<script>window.__xss=2</script>';
const LONG = `${'w'.repeat(9_990)}-long-text`;

type Expect = 'error' | 'not-found' | 'shown';
interface BadCase {
  name: string;
  handlers: () => RequestHandler[];
  expect: Expect;
  /** Extra check on a shown element. */
  check?: (el: HTMLElement, element: ElementCase) => void;
  /** Configure the element differently (a refused connection, a short timeout). */
  apiBase?: string;
  timeoutMs?: number;
}

const CASES: BadCase[] = [
  { name: 'HTTP 500 with problem+json', handlers: () => scenarios.serverError(), expect: 'error' },
  { name: 'HTTP 401 with problem+json', handlers: () => scenarios.unauthorized(), expect: 'error' },
  // Retrying cannot help a 404: the panel says so without Retry, and a corrected api-base recovers.
  { name: 'HTTP 404 with problem+json', handlers: () => scenarios.notFound(), expect: 'not-found' },
  { name: 'HTTP 500 with an HTML body', handlers: () => [http.get(ALL, () => HttpResponse.html('<h1>Oops</h1>', { status: 500 }))], expect: 'error' },
  { name: '200 with HTML instead of JSON', handlers: () => scenarios.htmlInsteadOfJson(), expect: 'error' },
  { name: '200 with wrong types', handlers: () => scenarios.malformed(), expect: 'error' },
  { name: 'missing required fields', handlers: () => [http.get(ALL, () => HttpResponse.json({}))], expect: 'error' },
  {
    name: 'a response slower than the timeout',
    handlers: () => [
      http.get(ALL, async () => {
        await delay(3_000);
      }),
    ],
    expect: 'error',
    timeoutMs: 1_000,
  },
  { name: 'a refused connection', handlers: () => [], expect: 'error', apiBase: 'http://127.0.0.1:9/refused/v1' },
  {
    name: 'unknown enum values',
    handlers: () => rewrite((body) => mapDeep(body, (k, v) => (ENUM_KEYS.has(k) && typeof v === 'string' ? UNKNOWN : v))),
    expect: 'shown',
    check: (el, element) => element.showsEnums && expect(deepText(el)).to.contain(UNKNOWN),
  },
  { name: 'empty lists', handlers: () => rewrite((body) => mapDeep(body, (_k, v) => (Array.isArray(v) ? [] : v))), expect: 'shown' },
  {
    name: 'extremely long strings (10,000 characters)',
    handlers: () => rewrite((body) => mapDeep(body, (k, v) => (TEXT_KEYS.has(k) && typeof v === 'string' ? LONG : v))),
    expect: 'shown',
    check: (el) => expect(el.scrollWidth, 'the element does not overflow its container').to.be.at.most(el.clientWidth + 1),
  },
  {
    name: 'markup, javascript: URLs and event handlers in strings',
    handlers: () => rewrite((body) => mapDeep(body, (k, v) => (TEXT_KEYS.has(k) && typeof v === 'string' ? PAYLOAD : v))),
    expect: 'shown',
    check: (el, element) => {
      expect((window as { __xss?: number }).__xss, 'no payload ran').to.equal(undefined);
      expect(deepQuery(el, 'img, script'), 'no markup from the API became elements').to.deep.equal([]);
      if (element.tag !== 'ops-error-form') expect(deepText(el)).to.contain('onerror="window.__xss=1"');
    },
  },
  {
    name: 'a very large body (5 MB of unknown fields)',
    handlers: () => rewrite((body) => ({ ...(body as object), padding: 'x'.repeat(5_000_000) })),
    expect: 'shown',
  },
];

/** Elements matching `selector` in an element and every shadow root inside it. */
function deepQuery(root: Element | ShadowRoot, selector: string): Element[] {
  const found = [...root.querySelectorAll(selector)];
  for (const el of root.querySelectorAll('*')) if (el.shadowRoot) found.push(...deepQuery(el.shadowRoot, selector));
  if (root instanceof Element && root.shadowRoot) found.push(...deepQuery(root.shadowRoot, selector));
  return found;
}

/** All text in an element and the shadow roots inside it. */
function deepText(node: Node): string {
  let out = node.nodeType === Node.TEXT_NODE ? (node.textContent ?? '') : '';
  if (node instanceof Element && node.shadowRoot) out += deepText(node.shadowRoot);
  for (const child of node.childNodes) out += deepText(child);
  return out;
}

async function mount(element: ElementCase, bad: BadCase, theme = 'light') {
  const el = document.createElement(element.tag);
  el.setAttribute('api-base', bad.apiBase ?? API_BASE);
  el.setAttribute('theme', theme);
  el.setAttribute('time-zone', 'UTC');
  for (const [k, v] of Object.entries(element.attrs)) el.setAttribute(k, v);
  const wrapper = await fixture<HTMLElement>(html`<ops-console timeout-ms=${bad.timeoutMs ?? 15_000} style="display:block;width:800px">${el}</ops-console>`);
  return wrapper.firstElementChild as HTMLElement;
}

describe('bad-input matrix', () => {
  const api = useMockApi();
  const uncaught: string[] = [];
  const onError = (e: ErrorEvent) => uncaught.push(e.message);
  const onRejection = (e: PromiseRejectionEvent) => uncaught.push(String(e.reason));
  beforeEach(() => {
    uncaught.length = 0;
    window.addEventListener('error', onError);
    window.addEventListener('unhandledrejection', onRejection);
  });
  afterEach(() => {
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onRejection);
  });

  for (const element of ELEMENTS) {
    describe(element.tag, () => {
      if (element.tag === 'ops-request-log') allowVirtualizerResizeNotice();
      for (const bad of CASES) {
        // Every case in light; in dark too, so axe checks every state in both schemes.
        for (const theme of ['light', 'dark']) {
          const outcome = {
            error: 'error with Retry, then recovers',
            'not-found': 'error without Retry, recovers at a corrected address',
            shown: 'shown neutrally',
          }[bad.expect];
          it(`${bad.name} (${theme}) → ${outcome}`, async () => {
            api.use(...bad.handlers());
            const el = await mount(element, bad, theme);
            const root = el.shadowRoot!;
            if (bad.expect !== 'shown') {
              const panel = await waitFor(() => root.querySelector('[part="error"]'), 'error state');
              expect(panel.getAttribute('role')).to.equal('alert');
              expect(panel.querySelector('.error-title')!.textContent).to.match(
                bad.expect === 'not-found'
                  ? new RegExp(`^(Couldn’t load ${element.noun}\\.|[A-Z][A-Za-z ]+ not found\\.)$`)
                  : new RegExp(`^Couldn’t load ${element.noun}\\.$`),
              );
              expect(panel.querySelector('.error-message')!.textContent.length).to.be.greaterThan(10);
              const retry = panel.querySelector<HTMLButtonElement>('[part="retry-button"]');
              expect(retry === null, 'Retry only where it can help').to.equal(bad.expect === 'not-found');
              api.resetHandlers();
              if (bad.apiBase) el.setAttribute('api-base', API_BASE);
              else if (bad.expect === 'not-found') el.setAttribute('api-base', `${API_BASE}/`);
              else retry!.click();
              await waitFor(() => root.querySelector(element.loaded), 'recovered');
            } else {
              await waitFor(() => root.querySelector(element.loaded) || root.querySelector('[part="empty"]'), 'shown');
              expect(root.querySelector('[part="error"]'), 'no error panel').to.equal(null);
              bad.check?.(el, element);
            }
            await expect(el).to.be.accessible();
            expect(uncaught).to.deep.equal([]);
          });
        }
      }
    });
  }
});

describe('races and leaks', () => {
  const api = useMockApi();
  allowVirtualizerResizeNotice(); // every element is mounted here, the request log included

  it('shows the last customer asked for, whatever order the answers come in', async () => {
    api.use(
      http.get(`*${API_BASE}/customers/:id`, async ({ params }) => {
        if (params['id'] === 'cus_acme') await delay(400); // the first answer is the slowest
      }),
    );
    const el = await mount(
      ELEMENTS.find((e) => e.tag === 'ops-customer')!,
      CASES[0]!,
    );
    el.setAttribute('customer-id', 'cus_globex');
    await waitFor(() => el.shadowRoot!.querySelector('h2 > span')?.textContent === 'Globex Corp', 'newer customer');
    await delay(600);
    expect(el.shadowRoot!.querySelector('h2 > span')!.textContent).to.equal('Globex Corp');
  });

  it('leaves no error behind when unmounted mid-request', async () => {
    api.use(
      http.get(`*${API_BASE}/*`, async () => {
        await delay(300);
      }),
    );
    const loadErrors: Event[] = [];
    const uncaught: unknown[] = [];
    const onRejection = (e: PromiseRejectionEvent) => uncaught.push(e.reason);
    document.addEventListener('ops-load-error', (e) => loadErrors.push(e));
    window.addEventListener('unhandledrejection', onRejection);
    for (const element of ELEMENTS) {
      const el = await mount(element, CASES[0]!);
      el.remove();
    }
    await delay(600);
    window.removeEventListener('unhandledrejection', onRejection);
    expect(loadErrors).to.have.length(0);
    expect(uncaught).to.deep.equal([]);
  });

  it('leaves no chart instance or timer behind after mounting each element many times', async () => {
    const drawnCharts: DrawnChart[] = [];
    const timers = watchTimers();
    for (const element of ELEMENTS) {
      for (let i = 0; i < 5; i++) {
        const el = await mount({ ...element, attrs: { ...element.attrs, 'refresh-interval': '5', live: '' } }, CASES[0]!);
        await waitFor(() => el.shadowRoot!.querySelector(element.loaded), 'loaded');
        if (i === 4) await delay(300); // let this one's charts draw
        drawnCharts.push(...chartsInside(el));
        el.remove();
      }
    }
    timers.restore();
    expect(drawnCharts.length, 'charts drawn by the elements that have them').to.be.greaterThan(0);
    expect(drawnCharts.filter((chart) => !chart.isDisposed()).length, 'charts still alive after their element left').to.equal(0);
    expect(timers.pending(), 'live polls, tickers and retries of removed elements').to.deep.equal([]);
  });
});

describe('keyboard', () => {
  useMockApi();
  allowVirtualizerResizeNotice(); // the request log is among the elements

  /** Every control a keyboard reaches inside `el` shows a visible focus ring. */
  for (const element of ELEMENTS) {
    it(`${element.tag}: every control is reachable by Tab and shows visible focus`, async () => {
      const el = await mount(element, CASES[0]!);
      await waitFor(() => el.shadowRoot!.querySelector(element.loaded), 'loaded');
      const { sendKeys } = await import('@web/test-runner-commands');
      const before = document.createElement('button');
      before.textContent = 'start';
      el.before(before);
      before.focus();
      const seen: string[] = [];
      for (let i = 0; i < 40; i++) {
        await sendKeys({ press: 'Tab' });
        let active: Element | null = document.activeElement;
        while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
        if (!active || !el.contains(active.getRootNode() instanceof ShadowRoot ? (active.getRootNode() as ShadowRoot).host : active)) {
          if (!deepQuery(el, '*').includes(active!)) break;
        }
        const style = getComputedStyle(active!);
        seen.push(active!.tagName.toLowerCase());
        expect(style.outlineStyle, `${active!.tagName} ${active!.id || active!.textContent.trim().slice(0, 30)} shows focus`).to.not.equal('none');
        expect(parseFloat(style.outlineWidth)).to.be.at.least(2);
      }
      expect(seen.length, 'at least one control is reachable').to.be.greaterThan(0);
      before.remove();
    });
  }
});
