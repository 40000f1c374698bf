/**
 * The server's modules form no cycle: a layer imports the ones below it, never one above. The
 * collector imports no package but the contract (bundled into it when packed) and Hono's types.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A module that reaches itself through its imports: move what both need into a layer below them.',
      from: { path: '^(server/src|contract/src|collect/src|src)/' },
      // A lazy import (the routed console's code, loaded on first use) is no cycle at load time.
      to: { circular: true, dependencyTypesNot: ['dynamic-import'], viaOnly: { dependencyTypesNot: ['dynamic-import'] } },
    },
    {
      name: 'collect-has-no-dependencies',
      severity: 'error',
      comment: 'The collector runs inside other people’s APIs, on Node 20 too: Node’s built-ins, the contract and Hono (the host’s own) only.',
      from: { path: '^collect/src/' },
      to: {
        dependencyTypesNot: ['core', 'type-only'],
        pathNot: ['^collect/src/', '^contract/src/', '^@ops-console/contract/', '^node_modules/hono/', '^hono/'],
      },
    },
    {
      name: 'collect-stands-alone',
      severity: 'error',
      comment: 'Packed alone, the collector has only its own modules and the contract’s: not the server’s, nor the elements’.',
      from: { path: '^collect/src/' },
      to: { path: '^(server|src|mocks|scripts)/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'server/tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
  },
};
