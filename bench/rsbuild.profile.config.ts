/**
 * The production build with hidden source maps (no comment in the files, the same code otherwise), for
 * bench/profile-signin.ts to name minified functions after their sources:
 * `npx rsbuild build -c bench/rsbuild.profile.config.ts` (then `npm run build` again before measuring).
 */
import { mergeRsbuildConfig, type RsbuildConfig } from '@rsbuild/core';
import base from '../rsbuild.config';
export default (env: Parameters<typeof base>[0]) =>
  mergeRsbuildConfig(base(env) as RsbuildConfig, { output: { sourceMap: { js: 'hidden-source-map' } } });
