// The custom-elements manifest is generated from the JSDoc of the element sources; internal
// style modules are left out so a CSS change does not churn the public description.
export default {
  litelement: true,
  packagejson: false,
  globs: ['src/**/*.ts'],
  exclude: [
    'src/**/*.test.ts',
    'src/elements/registry.ts',
    'src/**/*.styles.ts',
    'src/shared/styles.ts',
    'src/shared/table.ts',
    'src/shared/detail.ts',
    'src/react/**',
    'src/server.ts',
  ],
};
