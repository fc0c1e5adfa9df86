/**
 * The entry. The app's code (./start.tsx: React, the machines, i18next, the screens) is in this same
 * file (`webpackMode: "eager"`: no request of its own) but its modules are evaluated only when
 * imported, not when the script runs.
 *
 * A prerendered login page is on screen, and its fields take typing, before the app starts: this
 * script's own evaluation is then a few statements, so the browser finishes the page's first frame
 * and handles what waits (a key, a click) at once; the app's modules are evaluated in the next frame's
 * task, and the app starts and hydrates in the one after — each of those a long task at a slow CPU,
 * with a frame and any input between them (docs/performance.md, The signed-in path against
 * react-admin). A hidden tab has no frames: the timer starts the app there.
 */
// eslint-disable-next-line no-restricted-syntax -- eager: in this file, no request that could time out
const load = () => import(/* webpackMode: "eager" */ './start');

const container = document.getElementById('root');
if (!container) throw new Error('#root element missing from index.html');
const root = container;

if (root.dataset.prerendered === undefined) void load().then(({ start }) => start(root));
else {
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    void load().then(({ start }) => start(root));
  };
  requestAnimationFrame(() => {
    void load();
    requestAnimationFrame(once);
  });
  setTimeout(once, 1000);
}
