import { describe, expect, it } from 'vitest';
import { exchangesPerGroup, ReportCollector, renderText, type CountedExchange } from '../src/report.js';
import { renderHtml } from '../src/report-html.js';
import type { Violation } from '../src/violation.js';

const context = {
  proxy: { name: '@paykit/contract-proxy', version: '9.9.9' },
  contract: { name: 'payments', title: 'Payments API', version: 'v1' },
  upstream: 'https://api.example/rest/v1',
  mode: 'observe' as const,
};
const operations = [
  { id: 'getTransaction', method: 'GET', path: '/transactions/{receiptNumber}' },
  { id: 'createTransaction', method: 'POST', path: '/transactions' },
  { id: 'listTransactions', method: 'GET', path: '/transactions' },
];
const violation = (exchange: number, over: Partial<Violation> = {}): Violation => ({
  rule: 'openapi:enum',
  side: 'answer',
  operation: 'getTransaction',
  location: 'body.status',
  message: 'must be one of "Approved"',
  source: '#/components/schemas/Transaction/properties/status/enum',
  exchange,
  ...over,
});
const summary = (number: number, over: Partial<CountedExchange> = {}): CountedExchange => ({
  number,
  startedAt: Date.UTC(2026, 0, 1, 0, 0, number),
  operation: 'getTransaction',
  method: 'GET',
  outcome: 200,
  ...over,
});

describe('the report', () => {
  it('keeps every violation: past a thousand repeats of one rule they are counted in their group, not dropped', () => {
    const collector = new ReportCollector({ context, operations });
    for (let number = 1; number <= 1500; number++) collector.exchange(summary(number), [violation(number)]);
    collector.exchange(summary(1501, { operation: 'createTransaction', method: 'POST', outcome: 201 }), [
      violation(1501, { rule: 'idempotency-key', side: 'request', operation: 'createTransaction', location: 'header.Idempotency-Key', source: 'x-paykit-rules.retry' }),
    ]);
    const report = collector.snapshot();
    expect(report.totals).toEqual({ request: 1, answer: 1500 });
    expect(report.groups.map((group) => [group.rule, group.count, group.exchanges.length])).toEqual([
      ['openapi:enum', 1500, exchangesPerGroup],
      ['idempotency-key', 1, 1],
    ]);
    expect(report.groups[0]!.exchanges).toEqual(Array.from({ length: exchangesPerGroup }, (_, i) => i + 1));
    // Each exchange a group points at is described, so the HTML can link to it.
    expect(report.exchangesCited.map((exchange) => exchange.number)).toEqual([...Array.from({ length: exchangesPerGroup }, (_, i) => i + 1), 1501]);
    expect(renderHtml(report)).toContain('and 1480 more');
  });

  it('has the context, the answers by status, the coverage and a verdict', () => {
    const collector = new ReportCollector({ context: { ...context, mode: 'strict' }, operations });
    collector.exchange(summary(1), []);
    collector.exchange(summary(2, { outcome: 401 }), []);
    collector.exchange(summary(3, { outcome: 'refused', operation: 'createTransaction', method: 'POST' }), [
      violation(3, { side: 'request', rule: 'openapi:required', operation: 'createTransaction', location: 'body.currency' }),
    ]);
    collector.exchange(summary(4, { outcome: 'unreachable' }), []);
    const report = collector.snapshot();
    expect(report).toMatchObject({
      ...context,
      mode: 'strict',
      exchanges: 4,
      refused: 1,
      unreachable: 1,
      statuses: { '200': 1, '401': 1 },
      coverage: { operations: 3, exercised: 2, notExercised: [{ id: 'listTransactions', method: 'GET', path: '/transactions' }] },
      verdict: { passed: false },
    });
    expect(report.verdict.reasons).toEqual(['1 request violations (1 distinct)', '1 requests refused before they left (--strict)']);
    expect(report.verdict.notes).toEqual([
      'the service refused requests: 1 × 401',
      '1 requests never reached the service (the proxy answered 502)',
      '1 of 3 operations of the contract were not exercised',
    ]);
    const text = renderText(report);
    expect(text).toContain('verdict: FAIL');
    expect(text).toContain('Payments API v1 via https://api.example/rest/v1, strict mode, @paykit/contract-proxy 9.9.9');
    expect(text).toContain('answers by status: 200 × 1, 401 × 1');
  });

  it('passes a run with traffic and no violation, and fails one with no traffic (nothing was judged)', () => {
    const quiet = new ReportCollector({ context, operations });
    expect(quiet.snapshot().verdict).toEqual({ passed: false, reasons: ['no exchange crossed the proxy: there is nothing to judge'], notes: ['3 of 3 operations of the contract were not exercised'] });
    const clean = new ReportCollector({ context, operations });
    for (const [number, operation] of operations.entries()) clean.exchange(summary(number + 1, { operation: operation.id }), []);
    expect(clean.snapshot().verdict).toEqual({ passed: true, reasons: [], notes: [] });
    expect(renderHtml(clean.snapshot())).toContain('<span class="verdict pass">PASS</span>');
  });

  it('holds what the contract bounds, not what the traffic does: paths outside the contract share one line past 100', () => {
    const collector = new ReportCollector({ context, operations });
    for (let number = 1; number <= 500; number++) collector.exchange(summary(number, { operation: `GET /no-such/${number}`, outcome: 404 }), []);
    const names = Object.keys(collector.snapshot().operations);
    expect(names).toHaveLength(101);
    expect(collector.snapshot().operations['(other paths outside the contract)']).toBe(400);
  });

  it('the HTML escapes what it shows, loads nothing and links each group to its exchanges', () => {
    const collector = new ReportCollector({ context: { ...context, upstream: 'https://x/<b>' }, operations });
    collector.exchange(summary(7), [violation(7, { message: '<script>alert(1)</script>' })]);
    const html = renderHtml(collector.snapshot());
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toMatch(/\b(src|href)="(?!#)/);
    expect(html).toContain('<a href="#exchange-7">#7</a>');
    expect(html).toContain('<tr id="exchange-7">');
    expect(html).toContain('#/components/schemas/Transaction/properties/status/enum');
  });
});
