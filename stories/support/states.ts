/**
 * States every element shows the same way, written once: the API slow, timing out, answering a
 * proxy's HTML 502 or not reachable; a list's next page busy or failing; keyboard focus.
 */
import type { Decorator, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { delay, http, type RequestHandler } from 'msw';
import { problem } from '../../mocks/problem.ts';
import { press, shadowWith } from './play.ts';

/** The mock API of one failure scenario (mocks/scenarios.ts). */
export const scenario = (name: string) => `/api/scenario/${name}/v1`;

const PATIENT_MS = 600_000;
/**
 * For a story pictured while a request is on its way: inside a wrapper that gives requests ten
 * minutes, not the client's 15 s, the request stays on its way however long a picture takes.
 */
export const patient: Decorator = (story) => html`<ops-console timeout-ms=${PATIENT_MS}>${story()}</ops-console>`;

/** A panel waiting for its first answer, for as long as the story is looked at: the skeleton. */
export function loading<A extends { apiBase: string }>(): StoryObj<A> {
  return {
    args: { apiBase: '' } as Partial<A>,
    decorators: [(story) => html`<ops-console api-base=${scenario('hang')} timeout-ms=${PATIENT_MS}>${story()}</ops-console>`],
  };
}

/**
 * The four ways an API lets a panel down, for the element `tag` (which needs no other args to
 * load: its record ids come from the meta's args), whose error shows as `failed`.
 * - `slow`: every answer takes 2.5 s, so the skeleton shows first. Not pictured: what a picture
 *   shows depends on when it is taken, and the skeleton is `loading`'s picture;
 * - `timedOut`: no answer at all, inside an `<ops-console timeout-ms="1000">`, so the client gives up;
 * - `badGateway`: a proxy's HTML 502 page where JSON was expected;
 * - `networkError`: the request never reaches a server.
 */
export function apiFailures<A extends { apiBase: string }>(
  tag: string,
  failed = '[part="error"]',
): Record<'slow' | 'timedOut' | 'badGateway' | 'networkError', StoryObj<A>> {
  const base = (apiBase: string) => ({ apiBase }) as Partial<A>;
  return {
    slow: { args: base(scenario('slow')), parameters: { visual: { skip: 'timing: the answer comes 2.5 s in; loading is the picture' } } },
    timedOut: {
      args: base(''),
      decorators: [(story) => html`<ops-console api-base=${scenario('hang')} timeout-ms="1000">${story()}</ops-console>`],
      // Played once the client has given up, so the story (and its picture) is the error, not the wait.
      async play({ canvasElement }) {
        await shadowWith(canvasElement, tag, failed);
      },
    },
    badGateway: { args: base(scenario('html-error')) },
    networkError: { args: base(scenario('network-error')) },
  };
}

/**
 * "Load more" pressed on the list `path` of the default mock API (`/endpoints`, `/activity`) of
 * element `tag`, whose next page never arrives (`busy`) or fails with a 503 (`failed`).
 */
export function nextPage<A>(tag: string, path: string, outcome: 'busy' | 'failed'): StoryObj<A> {
  const handler: RequestHandler = http.get(`*/api/v1${path}`, async ({ request }) => {
    if (!new URL(request.url).searchParams.has('cursor')) return undefined; // the first page as usual
    if (outcome === 'busy') await delay('infinite');
    return problem(503, 'Service Unavailable', 'The console API is restarting. Try again in a minute.');
  });
  return {
    // The busy page's request stays open on purpose: the visual test does not wait for it.
    parameters: { visual: { answersPending: outcome === 'busy' } },
    ...(outcome === 'busy' && { decorators: [(story) => html`<ops-console timeout-ms=${PATIENT_MS}>${story()}</ops-console>`] }),
    beforeEach({ msw }) {
      msw.use(handler);
    },
    async play({ canvasElement }) {
      const root = await shadowWith(canvasElement, tag, '[part="load-more"]');
      press(root, '[part="load-more"]');
      await shadowWith(canvasElement, tag, outcome === 'busy' ? '[part="load-more"][disabled]' : '.more-error');
    },
  };
}

/** "Load more" pressed until the list has no next page: the button is gone, every item shown. */
export function lastPage<A>(tag: string): StoryObj<A> {
  return {
    async play({ canvasElement }) {
      for (let i = 0; i < 10; i++) {
        const root = await shadowWith(canvasElement, tag, '[part="load-more"]:not([disabled]), [part="item"], [part="row"]');
        const more = root.querySelector<HTMLButtonElement>('[part="load-more"]');
        if (!more) return;
        more.click();
        await delay(300);
      }
    },
  };
}

/** The part matched by `selector` in element `tag` holds keyboard focus, drawn as a keyboard user sees it. */
export function keyboardFocus<A>(tag: string, selector: string): StoryObj<A> {
  return {
    async play({ canvasElement }) {
      const root = await shadowWith(canvasElement, tag, selector);
      root.querySelector<HTMLElement>(selector)!.focus({ focusVisible: true });
    },
  };
}

/**
 * Windows' high-contrast (forced colours) mode. Storybook draws the story as usual; see it in
 * Chromium's DevTools › Rendering › "Emulate CSS media feature forced-colors". The visual test
 * takes its pictures that way.
 */
export const forcedColours = { parameters: { visual: { forcedColors: true } } };
