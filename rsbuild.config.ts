import { defineConfig, type RsbuildPlugin } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { VanillaExtractPlugin } from '@vanilla-extract/webpack-plugin';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { precompressDir } from './scripts/precompress.mjs';
import type * as Prerender from './src/app/prerender';

/**
 * Writes rspack's chunk graph to `dist/stats.json` after a production build, for the per-route size
 * table (`bench/route-sizes.mjs`, run by `npm run build` and `npm run bench`). Outside `dist/web` on
 * purpose: that folder is served, and the graph names every source module.
 */
const STATS_FILE = resolve('dist/stats.json');
const chunkGraphStats = {
  apply(compiler: {
    options: { mode?: string; name?: string };
    hooks: { done: { tap(name: string, fn: (stats: { toJson(options: object): unknown }) => void): void } };
  }) {
    compiler.hooks.done.tap('chunk-graph-stats', (stats) => {
      // The SPA's graph only, not the build-time prerender bundle's.
      if (compiler.options.mode !== 'production' || compiler.options.name !== 'web') return;
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
 * After a production build: renders the login page with the build's own code (the `prerender`
 * environment, src/app/prerender.tsx: the same modules, so the same vanilla-extract class names) into
 * `dist/web/login.<locale>.<theme>.<mail|no-mail>.html` (each language and theme, with and without reset mail:
 * src/domain/look-cookie.ts), one of which the server sends for `/{tenant}/login` (its largest contentful paint:
 * docs/performance.md).
 */
const PRERENDER_ROOT = resolve('dist/prerender');
const prerenderLoginPage: RsbuildPlugin = {
  name: 'prerender-login-page',
  setup(api) {
    api.onAfterBuild(async ({ stats }) => {
      if (stats?.hasErrors()) return;
      const web = resolve('dist/web');
      // A fresh URL per build: `import()` caches modules by URL (watch mode builds again).
      const module = (await import(
        `${pathToFileURL(resolve(PRERENDER_ROOT, 'prerender.js')).href}?build=${Date.now()}`
      )) as typeof Prerender;
      const index = readFileSync(resolve(web, 'index.html'), 'utf8');
      for (const { file, variant, look } of module.loginPages())
        writeFileSync(
          resolve(web, file),
          module.withPrerenderedPage(index, await module.renderLoginPage(variant, look)),
        );
    });
  },
};

/**
 * After a production build: a brotli and a gzip file beside every compressible asset under
 * `dist/web/static` (scripts/precompress.mjs), which server/src/plugins/static.ts sends to clients
 * that accept them. Compressed once here at the highest levels instead of per request.
 */
const precompressAssets: RsbuildPlugin = {
  name: 'precompress-assets',
  setup(api) {
    api.onAfterBuild(async ({ stats, environments }) => {
      if (stats?.hasErrors()) return;
      const web = environments.web;
      if (!web) return;
      const done = await precompressDir(resolve(web.distPath, 'static'));
      const sum = (key: 'raw' | 'brotli' | 'gzip') =>
        (done.reduce((total, file) => total + file[key], 0) / 1000).toFixed(1);
      api.logger.info(
        `precompressed ${done.length} assets: ${sum('raw')} kB raw, ${sum('gzip')} kB gzip -9, ${sum('brotli')} kB brotli q11`,
      );
    });
  },
};

/**
 * The SPA is served under `/{tenant}/…` (docs/product.md, Tenants in the address), so assets use absolute `/static/…` URLs that
 * work from any tenant path; the server maps them regardless of the first segment. Production
 * builds add the `prerender` environment (Node) for the login page above.
 */
export default defineConfig(({ command }) => ({
  plugins: [pluginReact(), ...(command === 'build' ? [prerenderLoginPage, precompressAssets] : [])],
  resolve: {
    alias: {
      // React 19 has useSyncExternalStore: the shims (@xstate/react, react-i18next, wouter) become React's own.
      'use-sync-external-store/shim/with-selector$': resolve('node_modules/use-sync-external-store/with-selector.js'),
      'use-sync-external-store/shim/index.js$': resolve('node_modules/use-sync-external-store/index.js'),
      'use-sync-external-store/shim$': resolve('node_modules/use-sync-external-store/index.js'),
    },
  },
  output: {
    // Legal comments would only add bytes to every route.
    legalComments: 'none',
  },
  environments: {
    web: {
      source: { entry: { index: './src/app/main.tsx' } },
      html: {
        title: 'Painel Back-office',
        template: './src/index.html',
      },
      output: {
        target: 'web',
        assetPrefix: '/',
        distPath: { root: 'dist/web' },
        // The entry and its style keep a hash of their own; lazy chunks take the build's (`tools` below).
        filenameHash: 'contenthash:8',
      },
      performance: {
        chunkSplit: {
          strategy: 'split-by-experience',
          override: {
            cacheGroups: {
              // The login page's JavaScript is one file: src/app/main.tsx with React and the other
              // libraries it loads. Each file is compressed on its own, and the same code as three files
              // (React, the other libraries, ours) costs 1.8 KB more brotli (docs/performance.md). The
              // price: a release that changes only our code is fetched whole again.
              react: false,
              // Lazy chunks: a module two or more of them use goes to a chunk shared by exactly those
              // (one per set of users, however small), so no module is in two chunks
              // (`duplicatedModuleKB`, bench/budgets.json) and a route fetches only what it runs; a
              // module one lazy chunk uses stays in it. rspack's default groups split libraries from
              // our code and skip shared parts under 20 KB, which left each lazy chunk its own copy
              // of React Aria's core (docs/performance.md, Bundle).
              defaultVendors: false,
              default: false,
              shared: {
                chunks: 'async',
                minChunks: 2,
                minSize: 0,
                priority: -10,
                reuseExistingChunk: true,
              },
              // The icon sets (the login route has its few icons in modules of their own) are one shared
              // async chunk, not a copy in every screen that shows an icon.
              icons: {
                test: /[\\/]src[\\/]ui[\\/](?:components|shell)[\\/]icons\.tsx$/,
                name: 'icons',
                chunks: 'async',
                enforce: true,
                priority: 20,
              },
            },
          },
        },
        printFileSize: { total: true, detail: true, compressed: true },
      },
      // Lazy chunks' files carry the build's hash, not each its own: the entry's runtime then holds no table
      // of every async script's and style's hash, which had grown with the chunks shared by exactly their
      // users (above) and put the login page's JS over its budget. The price: a deploy renames every lazy
      // file, so a returning user fetches again the screens they open (docs/performance.md, Bundle).
      tools: {
        rspack: (config) => {
          config.output = { ...config.output, chunkFilename: 'static/js/async/[name].[fullhash:8].js' };
        },
        cssExtract: { pluginOptions: { chunkFilename: 'static/css/async/[name].[fullhash:8].css' } },
      },
    },
    ...(command === 'build'
      ? {
          prerender: {
            source: { entry: { prerender: './src/app/prerender.tsx' } },
            output: { target: 'node' as const, module: true, distPath: { root: PRERENDER_ROOT }, minify: false },
            performance: { printFileSize: false },
          },
        }
      : {}),
  },
  tools: {
    rspack: {
      plugins: [new VanillaExtractPlugin(), chunkGraphStats],
      module: {
        rules: [
          // React Aria's built-in strings in the app's three locales only (scripts/aria-locales-loader.mjs).
          {
            test: /[\\/]react-(?:aria|stately|aria-components)[\\/]dist[\\/]private[\\/](?:[^\\/]+[\\/])?intlStrings\.mjs$/,
            loader: resolve('scripts/aria-locales-loader.mjs'),
          },
          // Gregorian only: the app's locales use no other calendar (scripts/gregorian-calendar-loader.mjs).
          {
            test: /[\\/]@internationalized[\\/]date[\\/]dist[\\/]private[\\/]createCalendar\.mjs$/,
            loader: resolve('scripts/gregorian-calendar-loader.mjs'),
          },
        ],
      },
    },
  },
}));
