// The closing report of .ci/run: each package's test time, read from turbo's run summaries (.turbo/runs/<id>.json,
// written because .ci/run sets TURBO_RUN_SUMMARY), beside the tests vitest counted for it in the log; then the
// passed/failed line of the whole run. Usage: node .ci/report.mjs LOG SUMMARY.json...
import { readFileSync } from 'node:fs';

const [logFile, ...summaryFiles] = process.argv.slice(2);
const log = readFileSync(logFile, 'utf8').replace(/\x1b\[[0-9;]*m/g, '');

/** Per task id (`@paykit/payments#test`): seconds it ran, whether turbo replayed it from its cache, its exit code. */
const tasks = new Map();
for (const file of summaryFiles) {
  const summary = JSON.parse(readFileSync(file, 'utf8'));
  for (const task of summary.tasks ?? []) {
    const { startTime, endTime, exitCode } = task.execution ?? {};
    if (startTime === undefined || endTime === undefined) continue; // not run (a dependency failed)
    tasks.set(task.taskId, { package: task.package, task: task.task, seconds: (endTime - startTime) / 1000, cached: task.cache?.status === 'HIT', exitCode });
  }
}

/** vitest's `Tests  3 failed | 27 passed | 2 skipped (32)` lines, by the turbo prefix (`pkg:test:`) they carry. */
const counts = new Map();
const total = { passed: 0, failed: 0, skipped: 0 };
for (const line of log.split('\n')) {
  const match = /^(?:(\S+?):([\w:-]+): )?\s*Tests\s+(\d+ \w+(?: \| \d+ \w+)*)/.exec(line);
  if (!match) continue;
  const key = match[1] ? `${match[1]}#${match[2]}` : '(unprefixed)';
  const entry = counts.get(key) ?? { passed: 0, failed: 0, skipped: 0 };
  for (const [, number, word] of match[3].matchAll(/(\d+) (\w+)/g)) {
    const kind = word === 'todo' ? 'skipped' : word;
    if (kind in entry) {
      entry[kind] += Number(number);
      total[kind] += Number(number);
    }
  }
  counts.set(key, entry);
}

const isTest = (t) => t.task === 'test' || t.task.startsWith('test:') || t.package === '//';
const tests = [...tasks.entries()].filter(([, t]) => isTest(t)).sort(([, a], [, b]) => b.seconds - a.seconds);
const others = [...tasks.values()].filter((t) => !isTest(t));
const width = Math.max(7, ...tests.map(([id]) => id.replace(/#test$/, '').length));
const row = (...cells) => cells.map((cell, i) => (i === 0 ? String(cell).padEnd(width) : String(cell).padStart(9))).join('  ').trimEnd();

console.log('\nTest time per package (turbo run summary; "cached": replayed from turbo\'s cache, not run)');
console.log(row('package', 'seconds', 'result', 'tests'));
for (const [id, task] of tests) {
  const counted = counts.get(id);
  const result = task.cached ? 'cached' : task.exitCode === 0 ? 'ok' : `exit ${task.exitCode}`;
  const name = task.package === '//' ? id : id.replace(/#test$/, '');
  const testCount = counted ? `${counted.passed}${counted.failed ? ` +${counted.failed} failed` : ''}${counted.skipped ? ` +${counted.skipped} skipped` : ''}` : '-';
  console.log(row(name, task.seconds.toFixed(1), result, testCount));
}
const sum = (list) => list.reduce((s, t) => s + t.seconds, 0);
console.log(row('all of them', sum(tests.map(([, t]) => t)).toFixed(1)));
console.log(`${row(`${others.length} other tasks`, sum(others).toFixed(1))}  (build, lint, compat, check:generated)`);
const failedTasks = [...tasks.entries()].filter(([, t]) => t.exitCode !== 0 && !t.cached).map(([id]) => id);
if (failedTasks.length > 0) console.log(`failed tasks: ${failedTasks.join(', ')}`);
console.log(`\n${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
