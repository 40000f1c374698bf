// The default theme, with <LiveExample>: an element of the reference drawn live on the mock API.
import DefaultTheme from 'vitepress/theme';
import type { Theme } from 'vitepress';
import LiveExample from './LiveExample.vue';

export default {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    app.component('LiveExample', LiveExample);
  },
} satisfies Theme;
