import type { StorybookConfig } from '@storybook/web-components-vite';

const config: StorybookConfig = {
  framework: { name: '@storybook/web-components-vite', options: {} },
  stories: ['../stories/**/*.mdx', '../stories/**/*.stories.ts'],
  addons: ['@storybook/addon-docs', '@storybook/addon-a11y', 'msw-storybook-addon'],
  // Serves mockServiceWorker.js at the root, where the MSW loader registers it.
  staticDirs: ['../public'],
  core: { disableTelemetry: true },
};

export default config;
