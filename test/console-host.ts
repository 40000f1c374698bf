/** Mounting an element as a host page does: inside an `<ops-console>` that reads a console server. */
import { fixture, html } from '@open-wc/testing';
import type { ConsoleConfig } from '../src/shared/config.ts';

/** `tag` (with `attrs`) inside an `<ops-console>` that reads `base` with `token`, in en-US and UTC. */
export async function mountInConsole(base: string, token: string, tag: string, attrs: Record<string, string> = {}): Promise<HTMLElement> {
  const host = document.createElement('ops-console') as HTMLElement & { getToken?: ConsoleConfig['getToken'] };
  host.setAttribute('api-base', base);
  host.setAttribute('locale', 'en-US');
  host.setAttribute('time-zone', 'UTC');
  host.getToken = () => Promise.resolve(token);
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  host.append(el);
  await fixture(html`${host}`);
  return el;
}
