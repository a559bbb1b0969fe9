// end-to-end: bundles both REST contracts with Redocly's bundler (the engine that lints them) once for the file, which
// takes seconds on a loaded machine (it outran the default 10 s hook bound beside two busy loops at load 20).
// Every assumption the contracts mark is visible: as a note on the reference page where it applies (in the docs
// bundle only, never in the published specs), on the generated "Confirm with the operator" page, which the landing
// page, the navigation and the going-live guide link; and no guide attributes an assumed fact to the reference.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleOpenApi, fromRoot, openApiContracts, soapContracts } from '@paykit/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { contractAssumptions, renderConfirmPage, soapContractAssumptions } from '../scripts/confirm-page.mjs';
import { readGuides } from '../scripts/guides.mjs';
import { assumptionAnchor, confirmPage, findMarks, readAssumptions, type Assumption, type Mark } from '../scripts/reference/assumptions.mjs';
import { paths } from '../scripts/site-paths.mjs';
import { findAttributions, sentencesOf } from './support/attribution.js';
import { builtDefinition } from './support/built-reference.js';

const notePrefix = "Our assumption, not the reference's";

interface ContractAssumptions {
  name: string;
  page: string;
  root: string;
  assumptions: Assumption[];
  marks: Mark[];
  doc: Record<string, unknown>;
}

const contracts: ContractAssumptions[] = [];
beforeAll(async () => {
  for (const contract of openApiContracts) {
    const doc = (await bundleOpenApi(contract.root)) as Record<string, unknown>;
    contracts.push({ name: contract.name, page: contract.docs.page, root: contract.root, assumptions: readAssumptions(doc), marks: findMarks(doc), doc });
  }
}, 60_000);

const built = (page: string) => readFileSync(join(paths.dist, page), 'utf8');

describe('assumptions on the reference pages', () => {
  it('the contracts mark assumptions', () => {
    const payments = contracts.find((c) => c.name === 'payments');
    expect(payments?.assumptions.map((a) => a.key)).toEqual(
      // The places the issue names (signature scheme, redelivery, subscriptions, Idempotency-Key scope, consumed token,
      // refund and void rules, the sandbox's conventions, unassigned key types), and those found since.
      expect.arrayContaining([
        'webhook-signature-scheme', 'webhook-redelivery', 'webhook-subscriptions', 'idempotency-key-scope', 'consumed-token-status',
        'refund-request', 'void-rules', 'test-environment-data', 'operation-key-type', 'transaction-status-values', 'token-quota-scope',
        'unpublished-request-values', 'csv-report-request',
      ]),
    );
  });

  it('every marked object of the built definition carries the note of each of its assumptions', () => {
    for (const contract of contracts) {
      const definitionMarks = findMarks(builtDefinition(contract.page));
      expect(definitionMarks.length, contract.name).toBe(contract.marks.length);
      for (const mark of definitionMarks) {
        for (const key of mark.keys) {
          const assumption = contract.assumptions.find((a) => a.key === key)!;
          expect(mark.node.description, `${contract.name}: ${mark.where}`).toContain(`${notePrefix}: ${assumption.title}.`);
          expect(mark.node.description).toContain(`${confirmPage.page}#${assumptionAnchor(key)}`);
        }
      }
    }
  });

  it('the published specs carry the marks but not the notes', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
    const shipped = readdirSync(paths.packages).map((p) => join(paths.packages, p, 'spec')).filter((dir) => existsSync(dir));
    const published = [join(paths.repoRoot, 'specs'), ...shipped].flatMap(files);
    expect(published.some((file) => readFileSync(file, 'utf8').includes('x-paykit-assumption'))).toBe(true);
    for (const file of published) expect(readFileSync(file, 'utf8'), file).not.toContain(notePrefix);
  });
});

describe(`the "${confirmPage.title}" page`, () => {
  it('lists every assumption of every contract, with the question to ask and each place it is marked', () => {
    const html = built(confirmPage.page);
    const text = html.replace(/<[^>]+>/g, '').replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    const plain = (markdown: string) => markdown.replace(/`/g, '').replace(/\s+/g, ' ').trim();
    let listed = 0;
    for (const contract of contracts) {
      for (const assumption of contract.assumptions) {
        expect(html).toContain(`id="${assumptionAnchor(assumption.key)}"`);
        expect(text).toContain(plain(assumption.confirm));
        const places = contract.marks.filter((m) => m.keys.includes(assumption.key));
        expect(places.length, assumption.key).toBeGreaterThan(0);
        for (const place of places) expect(text).toContain(plain(place.where));
        listed++;
      }
    }
    // And the SOAP contract's, from the assumptions.yaml beside its WSDL and the marks in the WSDL and XSD.
    for (const contract of soapContracts) {
      const { assumptions, places } = soapContractAssumptions({ title: contract.docs.title, page: contract.docs.page, wsdl: fromRoot(contract.wsdl) });
      expect(assumptions.map((a) => a.key)).toEqual(expect.arrayContaining(['soap-namespace', 'soap-parameter-shape']));
      for (const assumption of assumptions) {
        expect(html).toContain(`id="${assumptionAnchor(assumption.key)}"`);
        expect(text).toContain(plain(assumption.confirm));
        expect(places.get(assumption.key)?.length, assumption.key).toBeGreaterThan(0);
        for (const place of places.get(assumption.key) ?? []) expect(html).toContain(`href="${place.links[0]!.href}"`);
        listed++;
      }
    }
    expect(html.match(/<section class="assumption"/g)?.length).toBe(listed);
  });

  it('links each place an assumption is marked to its entry on the reference page, and has a contents list', () => {
    const html = built(confirmPage.page);
    // Operations by their Redoc route; a marked schema or parameter by the operations that use it.
    expect(html).toMatch(/<a class="marked" href="payments\.html#\/transactions\/createtransaction">createTransaction<\/a>/);
    expect(html).toMatch(/the schema <code>Transaction<\/code>, field <code>status<\/code> \(<a class="marked" href="payments\.html#\/transactions\/[a-z]+">/);
    expect(html).toMatch(/<a class="marked" href="file-exchange-soap\.html#type-Parameter">/);
    expect(html).toContain('<details class="toc">');
  });

  it('refuses a SOAP mark that names no assumption, and an assumption marked nowhere', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paykit-soap-marks-'));
    try {
      const wsdl = join(dir, 'x.wsdl');
      const xml = (assumption: string) =>
        `<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:paykit="urn:paykit:contract-extensions:v1" name="X" targetNamespace="urn:x" paykit:assumption="${assumption}"/>`;
      writeFileSync(join(dir, 'assumptions.yaml'), 'soap-namespace:\n  title: T\n  assume: A\n  confirm: C\n  keywords: [k]\n');
      writeFileSync(wsdl, xml('no-such-key'));
      expect(() => soapContractAssumptions({ title: 'X', page: 'x.html', wsdl })).toThrow(/"no-such-key", which assumptions.yaml does not hold/);
      writeFileSync(join(dir, 'assumptions.yaml'), 'soap-namespace:\n  title: T\n  assume: A\n  confirm: C\n  keywords: [k]\nunused:\n  title: T\n  assume: A\n  confirm: C\n  keywords: [k]\n');
      writeFileSync(wsdl, xml('soap-namespace'));
      expect(() => soapContractAssumptions({ title: 'X', page: 'x.html', wsdl })).toThrow(/holds unused, which nothing in the WSDL or XSD marks/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives the layout its headings: a section per contract, an entry per assumption, each an id of the page', async () => {
    const bundled = [];
    // The bundles of the hook (contractAssumptions only reads them).
    for (const c of contracts) bundled.push(contractAssumptions({ title: c.name, page: c.page, doc: c.doc }));
    const { html, headings } = renderConfirmPage(bundled);
    const withAssumptions = contracts.filter((c) => c.assumptions.length > 0);
    expect(headings.filter((h) => h.level === 2).map((h) => h.title)).toEqual(withAssumptions.map((c) => c.name));
    expect(headings.filter((h) => h.level === 3).map((h) => h.id)).toEqual(withAssumptions.flatMap((c) => c.assumptions.map((a) => assumptionAnchor(a.key))));
    for (const heading of headings) expect(html).toContain(`id="${heading.id}"`);
  });

  it('is linked from the landing page, the navigation of every page and the going-live guide', () => {
    const link = `href="${confirmPage.page}"`;
    expect(built('index.html')).toContain(link);
    expect(built('going-live.html')).toMatch(new RegExp(`href="${confirmPage.page}(#[^"]*)?"`));
    for (const guide of readGuides()) expect(built(guide.page), guide.page).toContain(link);
  });
});

describe('guides never attribute an assumption to the reference', () => {
  const keywords = () => contracts.flatMap((c) => c.assumptions.map(({ key, keywords }) => ({ key, keywords })));
  const check = (markdown: string) => findAttributions([{ source: 'fixture.md', markdown }], keywords()).map((a) => a.key);

  it.each([
    ['The reference names `Approved` and pending, and treats other values as declines.', 'transaction-status-values'],
    ['The reference says the signature is an HMAC-SHA256 of the body.', 'webhook-signature-scheme'],
    ["The reference's rule: a refund request names the payment.", 'refund-request'],
    ['Per the docs, and as the reference requires, a\nnotification is redelivered until it is answered.', 'webhook-redelivery'],
    ['| webhooks | the reference lists the subscription secret |', 'webhook-subscriptions'],
    ['The reference publishes the void (`POST /transactions/{receiptNumber}/void`, while the transaction is `voidable`) but not the shape of a refund.', 'void-rules'],
    ['The CSV report is what the reference says `GET /transactions` answers when text/csv is accepted.', 'csv-report-request'],
  ])('catches %j', (sentence, key) => {
    expect(check(sentence)).toContain(key);
  });

  it.each([
    'The reference shows the shape of the signature header but does not publish the signature algorithm.',
    'The reference publishes no test cards for its test environment.',
    'Our assumption: notifications are redelivered, and the scheme is HMAC-SHA256.',
    'The reference does not say what other values mean.',
    '```ts\n// the reference says HMAC\n```',
    'The reference names the void resource (our assumption: only while the transaction is voidable).',
    'The reference names the `voidable` flag (it does not say when a payment stops being voidable) and the void resource.',
  ])('lets %j pass', (sentence) => {
    expect(check(sentence)).toEqual([]);
  });

  it('splits guides into sentences, table rows and list items', () => {
    expect(sentencesOf('One. Two `code`.\n\n| a | b |\n| c | d |\n\n- item one\n  wraps here\n- item two')).toEqual([
      'One.',
      'Two code.',
      '| a | b |',
      '| c | d |',
      '- item one wraps here',
      '- item two',
    ]);
  });

  it('no guide does', () => {
    const found = findAttributions(readGuides(), keywords());
    expect(found.map((a) => `${a.guide} (${a.key}, "${a.keyword}"): ${a.sentence}`)).toEqual([]);
  });
});
