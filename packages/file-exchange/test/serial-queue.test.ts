import { describe, expect, it } from 'vitest';
import { SerialQueue } from '../src/serial-queue.js';

describe('SerialQueue', () => {
  it('runs tasks one at a time in call order, carrying on after a failure', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    let running = 0;
    const task = (name: string, fail = false) => async () => {
      running += 1;
      log.push(`start ${name} (${running} running)`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      log.push(`end ${name}`);
      if (fail) throw new Error(name);
      return name;
    };
    const results = await Promise.allSettled([queue.run(task('a')), queue.run(task('b', true)), queue.run(task('c'))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(log).toEqual(['start a (1 running)', 'end a', 'start b (1 running)', 'end b', 'start c (1 running)', 'end c']);
  });
});
