import { describe, expect, it } from 'vitest';
import { SerialQueue } from '../../src/core/index.js';

/** A task that starts when the queue runs it and ends when the test says so. */
function controlledTask(name: string, log: string[], running: { count: number }) {
  let finish!: (outcome: 'ok' | 'fail') => void;
  const task = () =>
    new Promise<string>((resolve, reject) => {
      running.count += 1;
      log.push(`start ${name} (${running.count} running)`);
      finish = (outcome) => {
        running.count -= 1;
        log.push(`end ${name}`);
        if (outcome === 'ok') resolve(name);
        else reject(new Error(name));
      };
    });
  return { task, finish: (outcome: 'ok' | 'fail') => finish(outcome) };
}

describe('SerialQueue', () => {
  it('runs tasks one at a time in call order, carrying on after a failure', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const running = { count: 0 };
    const [a, b, c] = ['a', 'b', 'c'].map((name) => controlledTask(name, log, running)) as [ReturnType<typeof controlledTask>, ReturnType<typeof controlledTask>, ReturnType<typeof controlledTask>];
    const results = Promise.allSettled([queue.run(a.task), queue.run(b.task), queue.run(c.task)]);
    await Promise.resolve();
    expect(log).toEqual(['start a (1 running)']);
    a.finish('ok');
    await new Promise(setImmediate);
    b.finish('fail');
    await new Promise(setImmediate);
    c.finish('ok');
    expect((await results).map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(log).toEqual(['start a (1 running)', 'end a', 'start b (1 running)', 'end b', 'start c (1 running)', 'end c']);
  });
});
