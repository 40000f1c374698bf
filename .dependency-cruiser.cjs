/** The server's modules form no cycle: a layer imports the ones below it, never one above. */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A module that reaches itself through its imports: move what both need into a layer below them.',
      from: { path: '^(server/src|contract/src|src)/' },
      // A lazy import (the routed console's code, loaded on first use) is no cycle at load time.
      to: { circular: true, dependencyTypesNot: ['dynamic-import'], viaOnly: { dependencyTypesNot: ['dynamic-import'] } },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'server/tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
  },
};
