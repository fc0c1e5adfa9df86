// The live machines (src/machines/live/index.ts) as the kit loads them: in the repository straight from
// the sources; in the package, the esbuild bundle scripts/prepack.mjs writes to dist/machines-entry.mjs.
export { liveGraphCounts, runLiveMachines } from '../../../src/machines/live/index';
export type { LiveReport, LiveTarget } from '../../../src/machines/live/index';
