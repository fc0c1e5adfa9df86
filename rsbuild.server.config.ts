import { defineConfig } from '@rsbuild/core';

/**
 * The reference server as JavaScript for Node (docs/operations.md): `npm run build` bundles
 * server/src/main.ts and server/src/admin-create.ts with the src/domain code they share into
 * `dist/server/`, and `npm start` runs that, without TypeScript at run time. Packages stay external
 * (imported from node_modules at run time: native argon2, PGlite's files, pino's workers); the contract
 * files the server reads (`new URL(…, import.meta.url)`) are copied beside the bundle.
 */
const bare = /^(?![./]|node:)/;

export default defineConfig({
  source: {
    entry: { main: './server/src/main.ts', 'admin-create': './server/src/admin-create.ts' },
  },
  output: {
    target: 'node',
    module: true,
    // Files the bundle refers to are found beside it, wherever dist/server is.
    assetPrefix: 'auto',
    distPath: { root: 'dist/server', js: '', jsAsync: 'chunks', assets: 'assets' },
    filename: { js: '[name].mjs', assets: '[name][ext]' },
    filenameHash: false,
    minify: false,
    sourceMap: { js: 'source-map' },
    legalComments: 'none',
    externals: [
      ({ request }, callback) => {
        if (request && (bare.test(request) || request.startsWith('node:'))) return callback(undefined, request);
        return callback();
      },
    ],
  },
  performance: { printFileSize: false, chunkSplit: { strategy: 'all-in-one' } },
  tools: {
    rspack: {
      externalsType: 'module-import',
      // NODE_ENV is the operator's to set when the server starts, not the build's to fix.
      optimization: { nodeEnv: false },
    },
  },
});
