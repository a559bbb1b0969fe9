/**
 * Runs tasks one after another, in call order, whatever became of the one before: the service takes one upload at a
 * time (`fileExchangeRules.uploads`), for REST and SOAP alike.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
