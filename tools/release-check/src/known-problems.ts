/**
 * Problems the release check finds today in code this package's owners may not change, by check (`types
 * @paykit/payments` is the type check of that package, under both module settings and both package managers). A
 * check compares what it finds with its entry: a new problem fails it, and so does a listed one that is gone (then
 * delete it here). Each entry says what it waits on.
 */
export const knownProblems: Record<string, { waitsOn: string; problems: string[] }> = {
  'types @paykit/payments': {
    waitsOn:
      'packages/payments/src: the webhooks entry declares Node request/response types without bringing @types/node ' +
      '(declare it, e.g. as a peer dependency, and reference it from the webhooks entry only, so that browser ' +
      'users of the other entries do not get Node globals)',
    problems: [
      "@paykit/payments/dist/webhooks/receiver.d.ts: TS2307 Cannot find module 'node:http' or its corresponding type declarations.",
    ],
  },
  'files @paykit/payments': {
    waitsOn: 'packages/payments: its source maps point at src/, which it does not ship (being fixed in the package)',
    problems: ['source maps point at src/, which is not shipped'],
  },
  'types @paykit/file-exchange': {
    waitsOn:
      'packages/file-exchange/src: its declarations use Node types (streams, Buffer) and those of undici, which need ' +
      '@types/node; like @paykit/file-exchange-soap, declare "@types/node" as a peer dependency and start src/index.ts ' +
      'with /// <reference types="node" preserve="true" />',
    problems: [
      "@paykit/file-exchange/dist/client.d.ts: TS2307 Cannot find module 'node:stream' or its corresponding type declarations.",
      "@paykit/file-exchange/dist/process-all.d.ts: TS2307 Cannot find module 'node:stream' or its corresponding type declarations.",
      "@paykit/file-exchange/dist/tls/client-tls-options.d.ts: TS2591 Cannot find name 'Buffer'. Do you need to install type definitions for node? Try `npm i --save-dev @types/node` and then add 'node' to the types field in your tsconfig.",
      "@paykit/file-exchange/dist/tls/load-tls-material.d.ts: TS2591 Cannot find name 'Buffer'. Do you need to install type definitions for node? Try `npm i --save-dev @types/node` and then add 'node' to the types field in your tsconfig.",
      "@paykit/file-exchange/dist/upload-content.d.ts: TS2307 Cannot find module 'node:stream' or its corresponding type declarations.",
      "@paykit/file-exchange/dist/upload-content.d.ts: TS2591 Cannot find name 'Buffer'. Do you need to install type definitions for node? Try `npm i --save-dev @types/node` and then add 'node' to the types field in your tsconfig.",
      "undici: TS2307 Cannot find module 'node:buffer' or its corresponding type declarations.",
      "undici: TS2307 Cannot find module 'node:dns' or its corresponding type declarations.",
      "undici: TS2307 Cannot find module 'node:events' or its corresponding type declarations.",
      "undici: TS2307 Cannot find module 'node:net' or its corresponding type declarations.",
      "undici: TS2307 Cannot find module 'node:stream' or its corresponding type declarations.",
      "undici: TS2307 Cannot find module 'node:stream/web' or its corresponding type declarations.",
      "undici: TS2307 Cannot find module 'node:tls' or its corresponding type declarations.",
      "undici: TS2307 Cannot find module 'node:url' or its corresponding type declarations.",
      "undici: TS2307 Cannot find module 'node:worker_threads' or its corresponding type declarations.",
      "undici: TS2503 Cannot find namespace 'NodeJS'.",
      "undici: TS2591 Cannot find name 'Buffer'. Do you need to install type definitions for node? Try `npm i --save-dev @types/node` and then add 'node' to the types field in your tsconfig.",
      "undici: TS2688 Cannot find type definition file for 'node'.",
    ],
  },
};

export function expectedProblems(check: string): string[] {
  return knownProblems[check]?.problems ?? [];
}
