import { describe, expect, it } from 'vitest';
import { cardForReplay, HarRecorder, prismViolations, renderHtml, renderText, ReportCollector, type Violation } from '../src/index.js';

const violation = (over: Partial<Violation> = {}): Violation => ({
  rule: 'openapi:enum',
  side: 'answer',
  operation: 'getTransaction',
  location: 'body.status',
  message: 'must be equal to one of the allowed values',
  ...over,
});

describe('Prism’s sl-violations header', () => {
  it('becomes violations by side, with the location under the message', () => {
    const header = JSON.stringify([
      { location: ['request', 'header', 'idempotency-key'], severity: 'Error', code: 'pattern', message: 'bad' },
      { location: ['response', 'body', 'status'], severity: 'Error', code: 'enum', message: 'enum' },
      { location: ['response', 'body', 'status'], severity: 'Error', code: 'enum', message: 'enum' },
      { location: ['response', 'body'], severity: 'Hint', code: 'x', message: 'hint' },
    ]);
    expect(prismViolations(header, 'op')).toEqual([
      { rule: 'openapi:pattern', side: 'request', operation: 'op', location: 'header.idempotency-key', message: 'bad' },
      { rule: 'openapi:enum', side: 'answer', operation: 'op', location: 'body.status', message: 'enum' },
    ]);
  });

  it('cut short by Prism is still reported', () => {
    expect(prismViolations('Too many violations! [{"loc', 'op')).toEqual([expect.objectContaining({ rule: 'openapi:too-many' })]);
  });

  it('absent means none', () => {
    expect(prismViolations(undefined, 'op')).toEqual([]);
  });
});

describe('the report', () => {
  it('counts operations, and violations by rule and side, in text, JSON and HTML', () => {
    const collector = new ReportCollector();
    collector.exchange('getTransaction', false);
    collector.exchange('createTransaction', true);
    collector.add([violation(), violation({ side: 'request', rule: 'idempotency-key', location: 'header.Idempotency-Key' })]);
    const report = collector.snapshot();
    expect(report).toMatchObject({
      exchanges: 2,
      refused: 1,
      operations: { createTransaction: 1, getTransaction: 1 },
      byRule: { 'idempotency-key': { request: 1, answer: 0 }, 'openapi:enum': { request: 0, answer: 1 } },
      totals: { request: 1, answer: 1 },
    });
    expect(renderText(report)).toMatch(/idempotency-key\s+1 \/ 0/);
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  it('escapes what it shows in HTML and loads nothing', () => {
    const collector = new ReportCollector();
    collector.add([violation({ message: '<script>alert(1)</script>' })]);
    const html = renderHtml(collector.snapshot());
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toMatch(/(src|href)=/);
  });
});

describe('the HAR recording', () => {
  it('redacts keys and masks card numbers in headers, URLs and bodies', () => {
    const recorder = new HarRecorder('https://api.example/rest/v1', '0.1.0');
    const card = '4111111111111111';
    recorder.add({
      startedAt: new Date(0),
      durationMs: 3,
      method: 'POST',
      url: `https://api.example/rest/v1/transactions/for-credit-card?cardNumber=${card}`,
      request: { headers: { authorization: 'Basic c2tfc2VjcmV0Og==', cookie: 'a=b', 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ cardNumber: card })) },
      status: 200,
      statusText: 'OK',
      response: { headers: { 'set-cookie': 'x=y', 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ echo: `card ${card}` })) },
      operation: 'listTransactionsForCreditCard',
      violations: [],
    });
    const har = recorder.har();
    const text = JSON.stringify(har);
    expect(text).not.toContain(card);
    expect(text).not.toContain('c2tfc2VjcmV0Og==');
    expect(text).not.toContain('a=b');
    expect(har.log.entries[0]!.request.headers).toContainEqual({ name: 'authorization', value: '[redacted]' });
    expect(har.log.entries[0]!.request.postData!.text).toBe(JSON.stringify({ cardNumber: '************1111' }));
  });
});

describe('a masked card number for replay', () => {
  const luhn = (digits: string) =>
    [...digits].reverse().reduce((sum, d, i) => {
      const n = Number(d) * (i % 2 ? 2 : 1);
      return sum + (n > 9 ? n - 9 : n);
    }, 0) % 10 === 0;
  it.each(['************1111', '***************4242', '************0000', '**********5678'])('%s keeps its length and last four, and passes Luhn', (masked) => {
    const card = cardForReplay(masked);
    expect(card).toHaveLength(masked.length);
    expect(card.endsWith(masked.slice(-4))).toBe(true);
    expect(luhn(card)).toBe(true);
  });
});
