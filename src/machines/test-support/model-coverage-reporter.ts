import type { Reporter, TestModule } from 'vitest/node';

/**
 * A vitest reporter that prints, at the end of a run, the paths and steps every model walk drove
 * of the app's machines (graph-coverage.ts records them on the test's meta), per machine and in total:
 *
 *   npx vitest run src/machines --reporter=default --reporter=./src/machines/test-support/model-coverage-reporter.ts
 */
export default class ModelCoverageReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const machines = new Map<string, { paths: number; steps: number; walks: number }>();
    // The walker's own tests (graph-coverage.test.ts) walk sample machines, not the app's.
    for (const module of testModules.filter((m) => !m.moduleId.includes('/test-support/')))
      for (const test of module.children.allTests())
        for (const walk of test.meta().modelCoverage ?? []) {
          const sum = machines.get(walk.machine) ?? { paths: 0, steps: 0, walks: 0 };
          machines.set(walk.machine, {
            paths: sum.paths + walk.paths,
            steps: sum.steps + walk.steps,
            walks: sum.walks + 1,
          });
        }
    if (machines.size === 0) return;
    const rows = [...machines].sort(([a], [b]) => a.localeCompare(b));
    const lines = rows.map(
      ([machine, { paths, steps, walks }]) =>
        `  ${machine}: ${paths} paths, ${steps} steps${walks > 1 ? ` (${walks} walks)` : ''}`,
    );
    const paths = rows.reduce((n, [, r]) => n + r.paths, 0);
    const steps = rows.reduce((n, [, r]) => n + r.steps, 0);
    process.stdout.write(
      `\nModel coverage per machine:\n${lines.join('\n')}\nModel coverage total: ${rows.length} machines, ${paths} paths, ${steps} steps\n`,
    );
  }
}
