// The guides' Markdown renderer: links between guide sources become links between built pages, headings get ids,
// and fences drop the flags of their info string.
import { describe, expect, it } from 'vitest';
import { createMarkdownRenderer, slugify } from '../scripts/markdown.mjs';

const markdown = createMarkdownRenderer(new Map([['02-card-payments.md', 'card-payments.html']]));

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

  it('gives every heading a unique id', () => {
    const html = markdown.render('# Errors, retries & `idempotency`\n\n## Limits\n\n## Limits\n');
    expect(html).toContain('<h1 id="errors-retries-idempotency">');
    expect(html).toContain('<h2 id="limits">');
    expect(html).toContain('<h2 id="limits-2">');
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
