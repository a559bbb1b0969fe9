import { describe, expect, it } from 'vitest';
import { isPaymentsError, PaymentsError } from '../../src/index.js';
import { failure } from '../support/fixtures.js';
import { inProcessClient } from '../support/in-process-fetch.js';

// Fault row "a PaymentsError crosses a boundary": two copies of the package installed side by side (a library built
// against another version) make two PaymentsError classes, and an error passed between threads or processes is a
// copy. `isPaymentsError` recognises the error of either copy, and its JSON form, which keeps every field.

async function someError() {
  const { client } = inProcessClient(() => Response.json({ developerMessage: 'no' }, { status: 422 }));
  return failure(client.transactions.get('1000000001'));
}

describe('isPaymentsError', () => {
  it("recognises an error of another installed copy of the package (another class), and narrows on its kind", async () => {
    // The module loaded a second time: another PaymentsError class, as a second copy in node_modules would give.
    // @ts-expect-error TypeScript does not resolve a specifier with a query; the module loader does.
    const other = (await import('../../src/errors/payments-error.js?another-copy')) as typeof import('../../src/errors/payments-error.js');
    expect(other.PaymentsError).not.toBe(PaymentsError);
    const foreign = new other.PaymentsError({ kind: 'validation', status: 422, message: 'refused' });
    expect(foreign instanceof PaymentsError).toBe(false);
    expect(isPaymentsError(foreign)).toBe(true);
    expect(other.isPaymentsError(await someError())).toBe(true);
  });

  it('recognises the JSON of an error after structuredClone (postMessage, a worker), with its fields', async () => {
    const error = await someError();
    const copy = structuredClone(error.toJSON());
    expect(isPaymentsError(copy)).toBe(true);
    expect(copy).toMatchObject({ kind: 'validation', status: 422, developerMessage: 'no', mustQueryState: false });
  });

  it('does not take what only looks alike for one', async () => {
    // structuredClone of an Error keeps its message and stack only: the platform's rule, nothing to recognise.
    const cloned = structuredClone(await someError());
    expect(Object.keys(cloned)).toEqual([]);
    expect(isPaymentsError(cloned)).toBe(false);
    expect(isPaymentsError({ name: 'PaymentsError' })).toBe(false);
    expect(isPaymentsError(new Error('x'))).toBe(false);
    expect(isPaymentsError(null)).toBe(false);
  });

  it('still narrows a real error of this copy', async () => {
    const error: unknown = await someError().catch((e: unknown) => e);
    expect(isPaymentsError(error) && error.kind === 'validation' && error.status).toBe(422);
  });
});
