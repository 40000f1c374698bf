// The dev server's demo page: mock API in a service worker, every element defined, and a tiny
// router that follows drill-downs to the detail panels, as a host app would.
import { startMockWorker } from '../mocks/browser.ts';
import { errorRecords, webhooks } from '../mocks/fixtures.ts';
import { handlersWithScenarios } from '../mocks/scenarios.ts';
import type { NavigateDetail } from '../src/shared/events.ts';

await startMockWorker(handlersWithScenarios({ now: () => new Date() }));
await import('../src/all.ts');

const log = document.querySelector('#events')!;
const show = (selector: string, attribute: string, value: string) => {
  const el = document.querySelector(selector)!;
  el.setAttribute(attribute, value);
  el.closest('section')?.scrollIntoView({ behavior: 'smooth' });
};

/** The demo's routes: endpoints lead to their webhook or error record, a customer to its page. */
function route({ kind, id, label = '' }: NavigateDetail): boolean {
  const webhook = webhooks.find((w) => w.relatedEndpoints.some((r) => r.label === label));
  const errorRecord = errorRecords.find((e) => e.endpoint === label);
  if (kind === 'customer') show('ops-customer', 'customer-id', id);
  else if (kind === 'webhooks' || (kind === 'endpoint' && webhook && label.includes('/webhooks')))
    show('ops-webhook', 'webhook-id', webhook?.id ?? 'wh_invoice_paid');
  else if (kind === 'endpoint' && errorRecord) show('ops-error', 'error-id', errorRecord.id);
  else if (kind === 'errors') show('ops-error-form', 'errors-href', '#errors');
  else return false;
  return true;
}

// Everything a route needs is in the event's detail ({ kind, id, label, href }): no shadow DOM is read.
document.addEventListener('ops-navigate', (event) => {
  if (route(event.detail)) event.preventDefault();
});

document.addEventListener('ops-error-created', (event) => show('ops-error', 'error-id', event.detail.record.id));

for (const type of ['ops-navigate', 'ops-load-error', 'ops-error-created', 'ops-error-updated', 'ops-cancel'] as const) {
  document.addEventListener(type, (event) => {
    const item = document.createElement('li');
    const detail: unknown =
      event.type === 'ops-load-error' ? { message: (event as CustomEvent<{ error: Error }>).detail.error.message } : (event as CustomEvent<unknown>).detail;
    item.textContent = `${type} ${JSON.stringify(detail)}`;
    log.prepend(item);
  });
}

const dark = document.querySelector<HTMLInputElement>('#dark')!;
dark.addEventListener('change', () => {
  document.documentElement.style.colorScheme = dark.checked ? 'dark' : 'light';
});
