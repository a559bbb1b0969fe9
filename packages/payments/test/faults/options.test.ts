import { describe, expect, it, vi } from 'vitest';
import { createPublishableClient, createSecretClient, isPaymentsError } from '../../src/index.js';
import { publishableKey, secretKey } from '../support/fixtures.js';

// Fault row "an option value that is NaN, Infinity, negative or empty": refused when the client is made, before any
// request can be sent, with a `configuration` error whose `option` names the culprit and whose message never echoes
// the key. An unset variable read with `Number(process.env.X)` is NaN: as `retry.maxRetries` it resent without end.

const unsetVariable = Number(process.env.PAYKIT_TEST_SURELY_UNSET);
const baseUrl = 'https://api.example.test/rest/v1';

function refusal(make: () => unknown) {
  try {
    make();
  } catch (error) {
    return error;
  }
  throw new Error('the client was made');
}

describe.each([
  { entry: 'secret', make: (options: object) => createSecretClient({ apiKey: secretKey, baseUrl, ...options }) },
  { entry: 'publishable', make: (options: object) => createPublishableClient({ apiKey: publishableKey, baseUrl, ...options }) },
])('the $entry client refuses, when it is made,', ({ make }) => {
  it.each([
    { option: 'retry.maxRetries', value: unsetVariable },
    { option: 'retry.maxRetries', value: Infinity },
    { option: 'retry.maxRetries', value: -1 },
    { option: 'retry.maxRetries', value: 1.5 },
    { option: 'retry.maxRetries', value: '2' },
    { option: 'retry.maxRetries', value: null },
    { option: 'retry.delayMs', value: unsetVariable },
    { option: 'retry.delayMs', value: Infinity },
    { option: 'retry.delayMs', value: -20_000 },
    { option: 'retry.delayMs', value: 2 ** 31 },
    { option: 'retry.delayMs', value: 0.5 },
    { option: 'timeoutMs', value: unsetVariable },
    { option: 'timeoutMs', value: -1 },
    { option: 'timeoutMs', value: '60000' },
    { option: 'timeoutMs', value: 1.5 },
    { option: 'apiKey', value: '' },
    { option: 'baseUrl', value: '' },
    { option: 'baseUrl', value: 'api.example.test' },
  ])('$option: $value', ({ option, value }) => {
    const options = option.startsWith('retry.') ? { retry: { [option.slice(6)]: value } } : { [option]: value };
    const fetch = vi.fn();
    const error = refusal(() => make({ ...options, fetch }));
    expect(isPaymentsError(error) && [error.kind, error.option]).toEqual(['configuration', option]);
    expect((error as Error).message).toContain(option);
    expect((error as Error).message).not.toContain(secretKey);
    expect(fetch).not.toHaveBeenCalled();
  });

  it.each([
    { label: 'no resend, no wait', options: { retry: { maxRetries: 0, delayMs: 0 } } },
    { label: 'the longest wait a timer holds', options: { retry: { maxRetries: 10, delayMs: 2 ** 31 - 1 } } },
    { label: 'timeoutMs 0 (no deadline)', options: { timeoutMs: 0 } },
    { label: 'timeoutMs Infinity (no deadline)', options: { timeoutMs: Infinity } },
    { label: 'an empty retry policy (the defaults)', options: { retry: {} } },
  ])('accepts $label', ({ options }) => {
    expect(() => make(options)).not.toThrow();
  });
});
