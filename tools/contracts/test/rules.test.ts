import { describe, expect, it } from 'vitest';
import { durationMs } from '../src/rules/duration.js';
import { readRules, RulesError } from '../src/rules/read-rules.js';

describe('durationMs', () => {
  it.each([
    ['PT20S', 20_000],
    ['PT5M', 300_000],
    ['PT4H', 14_400_000],
    ['PT22H', 79_200_000],
    ['P730D', 63_072_000_000],
    ['P1DT1H1M1S', 90_061_000],
  ])('%s is %d ms', (text, ms) => {
    expect(durationMs(text)).toBe(ms);
  });

  it.each(['P', 'PT', 'P2Y', 'P1M', '20s', 'PT20', '', 'P1DT'])('refuses %j', (text) => {
    expect(durationMs(text)).toBeUndefined();
  });
});

const shapes = {
  retry: { statuses: 'statuses', wait: 'duration', enabled: 'boolean', limit: 'count', busy: 'status', named: 'values', unnamed: 'values' },
} as const;
const valid = { description: 'resend later', statuses: [429, 503], wait: 'PT20S', enabled: true, limit: 2, busy: 503, named: ['Approved'], unnamed: [] };

describe('readRules', () => {
  it('reads each field by its kind, durations as milliseconds under <name>Ms', () => {
    const rules = readRules({ 'x-paykit-rules': { retry: valid } }, shapes, 'test');
    expect(rules).toEqual({
      retry: { description: 'resend later', statuses: [429, 503], waitMs: 20_000, enabled: true, limit: 2, busy: 503, named: ['Approved'], unnamed: [] },
    });
  });

  it.each([
    { problem: 'no rules object', document: {}, message: 'test: the contract has no x-paykit-rules object' },
    { problem: 'a missing rule', document: { 'x-paykit-rules': {} }, message: 'x-paykit-rules.retry is missing' },
    { problem: 'a rule without description', rule: { ...valid, description: ' ' }, message: 'retry.description is missing' },
    { problem: 'a missing field', rule: { ...valid, limit: undefined }, message: 'retry.limit must be a whole number' },
    { problem: 'a field left out', rule: (({ enabled: _, ...rest }) => rest)(valid), message: 'retry.enabled is missing' },
    { problem: 'an unknown field', rule: { ...valid, waitSeconds: 20 }, message: 'fields no reader knows: waitSeconds' },
    { problem: 'an empty status list', rule: { ...valid, statuses: [] }, message: 'list of HTTP status codes' },
    { problem: 'a status out of range', rule: { ...valid, busy: 600 }, message: 'retry.busy must be an HTTP status code' },
    { problem: 'a duration in years', rule: { ...valid, wait: 'P1Y' }, message: 'retry.wait must be an ISO 8601 duration' },
    { problem: 'a yes/no as text', rule: { ...valid, enabled: 'yes' }, message: 'retry.enabled must be true or false' },
    { problem: 'values that are not a list', rule: { ...valid, named: 'Approved' }, message: 'retry.named must be a list (empty or not) of non-empty strings' },
    { problem: 'an empty value', rule: { ...valid, named: ['Approved', ' '] }, message: 'retry.named must be a list' },
    { problem: 'a value that is not text', rule: { ...valid, unnamed: [5] }, message: 'retry.unnamed must be a list' },
    { problem: 'a negative count', rule: { ...valid, limit: -1 }, message: 'retry.limit must be a whole number' },
    {
      problem: 'an unknown rule',
      document: { 'x-paykit-rules': { retry: valid, retyr: valid } },
      message: 'rules no reader knows: retyr',
    },
  ])('refuses $problem', ({ document, rule, message }) => {
    const read = () => readRules(document ?? { 'x-paykit-rules': { retry: rule } }, shapes, 'test');
    expect(read).toThrow(RulesError);
    expect(read).toThrow(message);
  });
});
