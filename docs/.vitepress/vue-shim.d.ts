// The theme's single-file components, as the theme's TypeScript sees them (Vite compiles them).
declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent;
  export default component;
}
