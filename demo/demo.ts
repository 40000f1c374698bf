// The dev server's demo page: mock API in a service worker, then every element defined.
import { startMockWorker } from '../mocks/browser.ts';
import { handlersWithScenarios } from '../mocks/scenarios.ts';

await startMockWorker(handlersWithScenarios({ now: () => new Date() }));
await import('../src/all.ts');

const log = document.querySelector('#events')!;
for (const type of ['ops-navigate', 'ops-load-error'] as const) {
  document.addEventListener(type, (event) => {
    const item = document.createElement('li');
    const detail: unknown = event.type === 'ops-load-error' ? { message: (event as CustomEvent<{ error: Error }>).detail.error.message } : (event as CustomEvent<unknown>).detail;
    item.textContent = `${type} ${JSON.stringify(detail)}`;
    log.prepend(item);
  });
}

const dark = document.querySelector<HTMLInputElement>('#dark')!;
dark.addEventListener('change', () => {
  document.documentElement.style.colorScheme = dark.checked ? 'dark' : 'light';
});
