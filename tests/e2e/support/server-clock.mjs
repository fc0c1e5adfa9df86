/**
 * Preloaded into a reference server (NODE_OPTIONS=--import, tests/e2e/support/stable-server.ts): its
 * wall clock stands still at E2E_FIXED_TIME. The demo seed draws its 90 days of activity back from
 * "now" (server/src/tooling/seed.ts), so two servers started at different moments hold different
 * rows; with the clock fixed, two runs hold the same rows, and what a test writes (audit records,
 * sessions, a tenant's creation date) carries the same instant too. PGlite's `now()` reads the same
 * `Date.now()`. Timers are not touched: they run in real time.
 */
const fixed = Date.parse(process.env.E2E_FIXED_TIME ?? '');
if (!Number.isFinite(fixed)) throw new Error(`E2E_FIXED_TIME is not a date: ${String(process.env.E2E_FIXED_TIME)}`);

const RealDate = Date;
globalThis.Date = new Proxy(RealDate, {
  // `new Date()` is the fixed instant; `new Date(x)` is x as ever.
  construct: (target, args, newTarget) => Reflect.construct(target, args.length ? args : [fixed], newTarget),
  // `Date()` called as a function gives the current time as a string.
  apply: () => new RealDate(fixed).toString(),
  get: (target, key, receiver) => (key === 'now' ? () => fixed : Reflect.get(target, key, receiver)),
});
