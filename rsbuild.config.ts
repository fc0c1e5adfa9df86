import { defineConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { VanillaExtractPlugin } from '@vanilla-extract/webpack-plugin';

/**
 * The SPA is served under `/{tenant}/…` (DESIGN §4), so assets use absolute `/static/…` URLs that
 * work from any tenant path; the server maps them regardless of the first segment.
 */
export default defineConfig({
  plugins: [pluginReact()],
  source: {
    entry: { index: './src/main.tsx' },
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
    chunkSplit: { strategy: 'split-by-experience' },
    printFileSize: { total: true, detail: true, compressed: true },
  },
  tools: {
    rspack: {
      plugins: [new VanillaExtractPlugin()],
    },
  },
});
