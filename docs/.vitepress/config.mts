import { defineConfig } from 'vitepress';

// The documentation site, built from docs/ (`npm run docs:build`; `npm run docs` previews it).
// Reference pages under reference/ are generated from the manifest, the OpenAPI document, the
// config schema and the bench JSON by scripts/docs-reference.mjs before each build.
export default defineConfig({
  title: 'Ops Console',
  description: 'An operations console for public APIs: embeddable elements and the server that computes their figures.',
  base: process.env.DOCS_BASE ?? '/',
  head: [['link', { rel: 'icon', type: 'image/svg+xml', href: `${process.env.DOCS_BASE ?? '/'}favicon.svg` }]],
  cleanUrls: true,
  lastUpdated: false,
  // A broken link fails the build (links to the local demo and servers are examples).
  ignoreDeadLinks: 'localhostLinks',
  srcExclude: ['bench/**', 'samples/**'],
  // `{id}` in a route's heading is a path parameter, not markdown-it-attrs syntax.
  markdown: { attrs: { disable: true } },
  // The ops-* tags in the pages are the elements, not Vue components.
  vue: { template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('ops-') } } },
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/getting-started' },
      { text: 'Embedding', link: '/embedding/' },
      { text: 'Server', link: '/server/' },
      { text: 'Reference', link: '/reference/elements' },
    ],
    sidebar: [
      {
        text: 'Getting started',
        items: [
          { text: 'Your API in ten minutes', link: '/guide/getting-started' },
          { text: 'The demo', link: '/guide/demo' },
        ],
      },
      {
        text: 'Embedding',
        items: [
          { text: 'The script tag', link: '/embedding/' },
          { text: 'React, Vue, Angular, server rendering', link: '/embedding/frameworks' },
          { text: 'The elements', link: '/embedding/elements' },
          { text: 'Time ranges, theming, languages, events', link: '/embedding/customizing' },
          { text: 'Configuration and auth', link: '/embedding/configuration' },
          { text: 'Customer-facing mode', link: '/embedding/customers' },
        ],
      },
      {
        text: 'Server',
        items: [
          { text: 'Run the console server', link: '/server/' },
          { text: 'Collectors and OpenTelemetry', link: '/server/collecting' },
          { text: 'Auth, roles and embed sessions', link: '/server/auth' },
          { text: 'Alerts and SLOs', link: '/server/alerts' },
          { text: 'Scale out', link: '/server/scale-out' },
          { text: 'Deploy with the container', link: '/server/deploy' },
          { text: 'Operations', link: '/server/operations' },
        ],
      },
      {
        text: 'Reference',
        items: [
          { text: 'Elements', link: '/reference/elements' },
          { text: 'Console API', link: '/console-api' },
          { text: 'Console API operations', link: '/reference/operations' },
          { text: 'Server CLI', link: '/server-cli' },
          { text: 'Server configuration', link: '/reference/config' },
        ],
      },
      {
        text: 'Project',
        items: [
          { text: 'Security model', link: '/security' },
          { text: 'Performance', link: '/performance' },
          { text: 'Latest bench results', link: '/reference/bench' },
          { text: 'Contributing', link: '/contributing' },
        ],
      },
    ],
    search: { provider: 'local' },
    outline: [2, 3],
  },
});
