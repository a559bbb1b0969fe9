// The guides' Markdown renderer: links between guide sources become links between built pages, headings get ids and
// link to themselves, code is highlighted and gets the operations it calls listed, inline code naming an operation
// links to its reference entry, and fences drop the flags of their info string.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadHighlighter, type Highlight } from '../scripts/highlight.mjs';
import { createMarkdownRenderer, renderGuide, slugify } from '../scripts/markdown.mjs';
import type { ReferenceOperation } from '../scripts/reference/operation-index.mjs';

const markdown = createMarkdownRenderer(new Map([['02-card-payments.md', 'card-payments.html']]));

const operation = (fields: Partial<ReferenceOperation> & Pick<ReferenceOperation, 'operationId' | 'href'>): ReferenceOperation => ({
  page: fields.href.split('#')[0] ?? '',
  title: fields.operationId,
  summary: '',
  description: '',
  clientPackage: '@paykit/payments',
  contractTitle: 'Payments API reference',
  ...fields,
});

const operations = [
  operation({ operationId: 'createTransaction', href: 'payments.html#/transactions/createtransaction', title: 'Create a transaction', method: 'POST', path: '/transactions', clientMethod: 'transactions.create' }),
  operation({ operationId: 'getAlias', href: 'payments.html#/aliases/getalias', method: 'GET', path: '/aliases/{aliasId}', clientMethod: 'aliases.get' }),
  operation({ operationId: 'uploadFile', href: 'file-exchange.html#/uploads/uploadfile', method: 'POST', path: '/files/{fileName}', clientPackage: '@paykit/file-exchange' }),
  operation({ operationId: 'uploadFile', href: 'file-exchange-soap.html#operation-uploadFile', clientMethod: 'uploadFile', clientPackage: '@paykit/file-exchange-soap' }),
];

describe('guide Markdown', () => {
  it.each([
    { source: '[cards](02-card-payments.md)', html: '<a href="card-payments.html">cards</a>' },
    { source: '[cards](./02-card-payments.md#3-take-the-payment)', html: '<a href="card-payments.html#3-take-the-payment">cards</a>' },
    { source: '[reference](payments.html)', html: '<a href="payments.html">reference</a>' },
    { source: '[anchor](#idempotency-keys)', html: '<a href="#idempotency-keys">anchor</a>' },
  ])('renders $source', ({ source, html }) => {
    expect(markdown.render(source)).toContain(html);
  });

  it('refuses a link to a Markdown file that is not a guide, naming the guide', () => {
    expect(() => markdown.render('[x](09-missing.md)', { source: '01-start.md' })).toThrow('01-start.md links to 09-missing.md, which is not a guide');
  });

  it('gives every heading a unique id and makes it a link to itself', () => {
    const html = markdown.render('# Errors, retries & `idempotency`\n\n## Limits\n\n## Limits\n');
    expect(html).toContain('<h1 id="errors-retries-idempotency"><a class="anchor" href="#errors-retries-idempotency">Errors, retries &amp; <code>idempotency</code></a></h1>');
    expect(html).toContain('<h2 id="limits"><a class="anchor" href="#limits">Limits</a></h2>');
    expect(html).toContain('<h2 id="limits-2"><a class="anchor" href="#limits-2">Limits</a></h2>');
  });

  it('hands back the headings of a guide, for its contents list', () => {
    const { headings } = renderGuide(markdown, '# Guide\n\n## One `a`\n\n### Sub\n\n## One `a`\n', '01-x.md');
    expect(headings).toEqual([
      { level: 1, id: 'guide', title: 'Guide' },
      { level: 2, id: 'one-a', title: 'One a' },
      { level: 3, id: 'sub', title: 'Sub' },
      { level: 2, id: 'one-a-2', title: 'One a' },
    ]);
  });

  it('keeps only the language of a fence info string', () => {
    expect(markdown.render('```ts runnable\nconst a = 1;\n```\n')).toContain('<code class="language-ts">');
  });

  it('does not pass raw HTML through', () => {
    expect(markdown.render('<script>alert(1)</script>')).not.toContain('<script>');
  });

  it.each([
    ['Card payments with 3D Secure', 'card-payments-with-3d-secure'],
    ['  Spaces & symbols!  ', 'spaces-symbols'],
  ])('slugify(%j) is %j', (text, slug) => {
    expect(slugify(text)).toBe(slug);
  });
});

describe('operations named in a guide', () => {
  const withOperations = createMarkdownRenderer(new Map(), new Map(), { operations });
  const link = (href: string) => `<a href="${href}" class="operation"`;

  it.each([
    { text: '`createTransaction`', href: 'payments.html#/transactions/createtransaction', code: 'createTransaction' },
    { text: '`POST /transactions`', href: 'payments.html#/transactions/createtransaction', code: 'POST /transactions' },
    { text: '`GET /aliases/{id}`', href: 'payments.html#/aliases/getalias', code: 'GET /aliases/{id}' },
    { text: '`client.transactions.create()`', href: 'payments.html#/transactions/createtransaction', code: 'client.transactions.create()' },
    { text: '`payments.aliases.get(id)`', href: 'payments.html#/aliases/getalias', code: 'payments.aliases.get(id)' },
    { text: '`POST /files/{name}`', href: 'file-exchange.html#/uploads/uploadfile', code: 'POST /files/{name}' },
  ])('$text links to $href', ({ text, href, code }) => {
    const html = withOperations.render(`Call ${text} first.`);
    expect(html).toContain(`${link(href)} title=`);
    expect(html).toContain(`<code>${code.replace(/&/g, '&amp;')}</code></a>`);
  });

  it.each([
    { text: '`uploadFile`', why: 'two contracts name an operation so' },
    { text: '`GET /transactions`', why: 'no operation has that method and path' },
    { text: '`transactions.refund()`', why: 'no client method has that name' },
    { text: '`status`', why: 'it names no operation' },
    { text: '[`createTransaction`](going-live.html)', why: 'it is a link already' },
    { text: '## `createTransaction`', why: 'a heading links to itself' },
  ])('$text is not linked: $why', ({ text }) => {
    expect(withOperations.render(text)).not.toContain('class="operation"');
  });

  it('lists under a sample the operations it calls through a client package it imports', () => {
    const sample = "```ts\nimport { createSecretClient } from '@paykit/payments';\nawait client.transactions.create({});\nawait client.aliases.get('a');\n```\n";
    const html = withOperations.render(sample);
    expect(html).toContain('<p class="sample-operations">In the reference: <a class="operation" href="payments.html#/transactions/createtransaction"><code>transactions.create</code></a> (Create a transaction), <a class="operation" href="payments.html#/aliases/getalias"><code>aliases.get</code></a>');
    // The same calls without the package's import are someone else's methods.
    expect(withOperations.render(sample.replace("from '@paykit/payments'", "from './mine.js'"))).not.toContain('sample-operations');
  });

  it('lists a SOAP call, by method or through call()', () => {
    for (const call of ['client.uploadFile({})', "client.call('uploadFile', {})"]) {
      const html = withOperations.render(`\`\`\`ts\nimport { createFileExchangeSoapClient } from '@paykit/file-exchange-soap';\nawait ${call};\n\`\`\`\n`);
      expect(html).toContain('<a class="operation" href="file-exchange-soap.html#operation-uploadFile">');
    }
  });
});

describe('highlighted code', () => {
  let highlight: Highlight;
  beforeAll(async () => {
    highlight = await loadHighlighter();
  });

  it('gives tokens their light colour and their dark one, from the first block of a language on', () => {
    const html = highlight("import { x } from 'y';\n", 'ts');
    const light = [...html.matchAll(/<span style="color:(#[0-9A-F]{6});--shiki-dark:#[0-9A-F]{6}">/gi)].map((m) => m[1]);
    expect(light.length).toBeGreaterThan(3);
    // The keyword and the string differ: Shiki's first block of a language once had one colour throughout.
    expect(new Set(light).size).toBeGreaterThan(1);
  });

  it('renders a guide fence highlighted, inside the sample holder the copy button goes in', () => {
    const html = createMarkdownRenderer(new Map(), new Map(), { highlight }).render('```ts runnable\nconst a = 1;\n```\n');
    expect(html).toMatch(/^<div class="sample" data-language="ts"><pre class="shiki [^"]*"/);
    expect(html).toContain('--shiki-dark:');
  });

  it('leaves a language it does not know as plain text', () => {
    expect(highlight('a <b>\n', 'cobol')).toContain('<span>a &#x3C;b></span>');
  });
});

describe('guide images', () => {
  it('shows an image of guides/images at its size, loaded lazily, and collects it for the build', () => {
    const images = new Set<string>();
    const { html } = renderGuide(markdown, '![The transactions view](images/sandbox-dashboard-transactions-desktop-light.png)', '09-testing-with-the-sandbox.md', images);
    expect(html).toContain('<img src="images/sandbox-dashboard-transactions-desktop-light.png" alt="The transactions view" width="1200" height="640" loading="lazy" decoding="async">');
    expect([...images]).toEqual(['images/sandbox-dashboard-transactions-desktop-light.png']);
  });

  it.each([
    { src: 'images/not-taken-yet.png', problem: /not in docs\/guides\/images\/.*PAYKIT_UPDATE_SCREENSHOTS=1/ },
    { src: 'https://example.com/shot.png', problem: /PNG files in guides\/images\// },
    { src: '../secret.png', problem: /PNG files in guides\/images\// },
  ])('fails the build for $src', ({ src, problem }) => {
    expect(() => renderGuide(markdown, `![a view](${src})`, '09-testing-with-the-sandbox.md')).toThrow(problem);
  });
});
