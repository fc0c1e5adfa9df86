import { defineConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { VanillaExtractPlugin } from '@vanilla-extract/webpack-plugin';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Writes rspack's chunk graph to `dist/stats.json` after a production build, for the per-route size
 * table (`bench/route-sizes.mjs`, run by `npm run build` and `npm run bench`). Outside `dist/web` on
 * purpose: that folder is served, and the graph names every source module.
 */
const STATS_FILE = resolve('dist/stats.json');
const chunkGraphStats = {
  apply(compiler: { options: { mode?: string }; hooks: { done: { tap(name: string, fn: (stats: { toJson(options: object): unknown }) => void): void } } }) {
    compiler.hooks.done.tap('chunk-graph-stats', (stats) => {
      if (compiler.options.mode !== 'production') return;
      const json = stats.toJson({
        all: false,
        assets: true,
        chunks: true,
        chunkGroups: true,
        chunkOrigins: true,
        chunkModules: true,
        chunkRelations: true,
        entrypoints: true,
        ids: true,
        modules: false,
        nestedModules: true,
        dependentModules: true,
        nestedModulesSpace: 100000,
        orphanModules: true,
        origins: true,
      });
      mkdirSync(dirname(STATS_FILE), { recursive: true });
      writeFileSync(STATS_FILE, JSON.stringify(json));
    });
  },
};

/**
 * The SPA is served under `/{tenant}/…` (DESIGN §4), so assets use absolute `/static/…` URLs that
 * work from any tenant path; the server maps them regardless of the first segment.
 */
export default defineConfig({
  plugins: [pluginReact()],
  source: {
    entry: { index: './src/main.tsx' },
  },
  resolve: {
    alias: {
      // React 19 has useSyncExternalStore: the shims (@xstate/react, react-i18next, wouter) become React's own.
      'use-sync-external-store/shim/with-selector$': resolve('node_modules/use-sync-external-store/with-selector.js'),
      'use-sync-external-store/shim/index.js$': resolve('node_modules/use-sync-external-store/index.js'),
      'use-sync-external-store/shim$': resolve('node_modules/use-sync-external-store/index.js'),
    },
  },
  html: {
    title: 'Painel Back-office',
    template: './src/index.html',
  },
  output: {
    assetPrefix: '/',
    distPath: { root: 'dist/web' },
    // Legal comments would only add bytes to every route.
    legalComments: 'none',
  },
  performance: {
    chunkSplit: {
      strategy: 'split-by-experience',
      override: {
        cacheGroups: {
          // The icon sets (the login route has its few icons in modules of their own) are one shared
          // async chunk, not a copy in every screen that shows an icon.
          icons: { test: /[\\/]src[\\/]ui[\\/](?:components|shell)[\\/]icons\.tsx$/, name: 'icons', chunks: 'async', enforce: true, priority: 20 },
        },
      },
    },
    printFileSize: { total: true, detail: true, compressed: true },
  },
  tools: {
    rspack: {
      plugins: [new VanillaExtractPlugin(), chunkGraphStats],
      module: {
        rules: [
          // React Aria's built-in strings in the app's three locales only (scripts/aria-locales-loader.mjs).
          { test: /[\\/]react-(?:aria|stately|aria-components)[\\/]dist[\\/]private[\\/](?:[^\\/]+[\\/])?intlStrings\.mjs$/, loader: resolve('scripts/aria-locales-loader.mjs') },
          // Gregorian only: the app's locales use no other calendar (scripts/gregorian-calendar-loader.mjs).
          { test: /[\\/]@internationalized[\\/]date[\\/]dist[\\/]private[\\/]createCalendar\.mjs$/, loader: resolve('scripts/gregorian-calendar-loader.mjs') },
        ],
      },
    },
  },
});
