import { setCustomElementsManifest, type Preview } from '@storybook/web-components-vite';
import { html } from 'lit';
import { setupWorker } from 'msw/browser';
import { mswLoader } from 'msw-storybook-addon/csf3';
import { handlersWithScenarios } from '../mocks/scenarios.ts';
import '../src/all.ts';
import { controlsFromTypes, forStorybook, sourceOfStory } from '../stories/support/element.ts';

// Docs pages (properties with their attributes, events, parts, CSS properties) come from the manifest.
setCustomElementsManifest(forStorybook());

/** Token sets a designer can switch between in the toolbar. */
const THEMES: Record<string, string> = {
  light: 'color-scheme: light;',
  dark: 'color-scheme: dark;',
  brand: 'color-scheme: light; --ops-color-accent: #6d28d9; --ops-font-family: Georgia, serif; --ops-radius: 2px; --ops-color-surface-raised: #f5f0ff;',
};

const preview: Preview = {
  tags: ['autodocs'],
  argTypesEnhancers: [controlsFromTypes],
  // The mock API: defaults on /api/v1 and every scenario on /api/scenario/<name>/v1.
  loaders: [
    mswLoader(async () => {
      const worker = setupWorker(...handlersWithScenarios());
      await worker.start({ quiet: true, onUnhandledFrame: 'bypass' });
      return worker;
    }),
  ],
  globalTypes: {
    theme: {
      description: 'Colour scheme and tokens',
      toolbar: { title: 'Theme', icon: 'paintbrush', items: ['light', 'dark', 'brand'], dynamicTitle: true },
    },
    lang: {
      description: 'Language of the page (<html lang>), which every element follows unless it sets its own locale',
      toolbar: {
        title: 'Language',
        icon: 'globe',
        items: [
          { value: 'en', title: 'English' },
          { value: 'de', title: 'Deutsch' },
          { value: 'ja', title: '日本語' },
        ],
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { theme: 'light', lang: 'en' },
  decorators: [
    (story, context) => {
      const theme = String(context.globals['theme'] ?? 'light');
      document.documentElement.lang = String(context.globals['lang'] ?? 'en');
      // A story fills its canvas with the panels' own surface, so a dark story is dark edge to edge.
      if (context.viewMode === 'story')
        document.body.style.cssText = `margin: 0; min-height: 100vh; ${THEMES[theme] ?? ''} background: light-dark(#ffffff, #15171c);`;
      return html`<div style="${THEMES[theme] ?? ''} padding: 1rem; background: light-dark(#ffffff, #15171c);">${story()}</div>`;
    },
  ],
  parameters: {
    a11y: { test: 'error' },
    controls: { expanded: true },
    docs: { source: { transform: sourceOfStory } },
    options: { storySort: { order: ['Introduction', 'Guides', 'Elements'] } },
  },
};

export default preview;
