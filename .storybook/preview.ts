import { setCustomElementsManifest, type Preview } from '@storybook/web-components-vite';
import { html } from 'lit';
import { setupWorker } from 'msw/browser';
import { mswLoader } from 'msw-storybook-addon/csf3';
import { handlersWithScenarios } from '../mocks/scenarios.ts';
import '../src/all.ts';
import manifest from '../custom-elements.json';

// Docs pages (attributes, properties, events, parts, CSS properties) come from the manifest.
setCustomElementsManifest(manifest);

/** Token sets a designer can switch between in the toolbar. */
const THEMES: Record<string, string> = {
  light: 'color-scheme: light;',
  dark: 'color-scheme: dark;',
  brand: 'color-scheme: light; --ops-color-accent: #6d28d9; --ops-font-family: Georgia, serif; --ops-radius: 2px; --ops-color-surface-raised: #f5f0ff;',
};

const preview: Preview = {
  tags: ['autodocs'],
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
  },
  initialGlobals: { theme: 'light' },
  decorators: [
    (story, context) => {
      const theme = String(context.globals['theme'] ?? 'light');
      return html`<div style="${THEMES[theme] ?? ''} padding: 1rem; background: light-dark(#fff, #0d0f12);">${story()}</div>`;
    },
  ],
  parameters: {
    a11y: { test: 'error' },
    controls: { expanded: true },
  },
};

export default preview;
