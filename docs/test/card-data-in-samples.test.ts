// No sample of the site shows a full card number or a card security code: a payer types them into an app or the
// operator's hosted frame, and a sample that shows one teaches copying it into code, logs or tests. The reference
// publishes no test cards, so there is no exception: the payments sandbox's own test cards are listed in its guide's
// table (where they are meant to be typed into a sandbox), and samples that run against it take them from its package.
// Checked in every code block of the guides and every sample of the reference pages (REST and SOAP).
import { describe, expect, it } from 'vitest';
import MarkdownIt from 'markdown-it';
import { controlContracts, openApiContracts, readOpenApiContract, readSensitiveMarks, soapContracts } from '@paykit/contracts';
import { readGuides } from '../scripts/guides.mjs';
import { isCardNumber } from '../scripts/reference/rest-samples.mjs';
import { builtDefinition, builtOperations, builtSoapSamples } from './support/built-reference.js';

/** Card data in a piece of code: a Luhn-valid run of 13 to 19 digits (spaces or dashes allowed), or a security code. */
export function cardDataIn(code: string): string[] {
  const numbers = [...code.matchAll(/(?<![\d.])\d(?:[ -]?\d){12,18}(?![\d.])/g)].map((m) => m[0]).filter((n) => isCardNumber(n.replace(/[ -]/g, '')));
  const codes = [...code.matchAll(/["']?\b(?:cvn|cvv|cvc|securityCode)\b["']?\s*[:=]\s*["']\d{3,4}["']/gi)].map((m) => m[0]);
  return [...numbers, ...codes];
}

const fences = (markdown: string) => new MarkdownIt().parse(markdown, {}).filter((t) => t.type === 'fence').map((t) => t.content);

describe('card data in samples', () => {
  it('finds a card number and a security code, and leaves other numbers alone', () => {
    expect(cardDataIn("cardNumber: '4111111111111111', cvn: '123'")).toEqual(['4111111111111111', "cvn: '123'"]);
    expect(cardDataIn('"cardNumber": "4111 1111 1111 1111", "cvn": "1234"')).toEqual(['4111 1111 1111 1111', '"cvn": "1234"']);
    expect(cardDataIn("receiptNumber: '1000000042', amount: 1234567890123, cardNumber: cardForm.number")).toEqual([]);
  });

  it('no code block of the guides shows one', () => {
    const found = readGuides().flatMap((g) => fences(g.markdown).flatMap((code) => cardDataIn(code).map((d) => `${g.source}: ${d}`)));
    expect(found).toEqual([]);
  });

  it('no sample of the reference pages shows one, though the contract\'s examples hold test cards', async () => {
    const found: string[] = [];
    for (const contract of [...openApiContracts, ...controlContracts]) {
      for (const op of builtOperations(builtDefinition(contract.docs.page))) {
        for (const sample of op.codeSamples) found.push(...cardDataIn(sample.source).map((d) => `${contract.docs.page} ${op.operationId} (${sample.lang}): ${d}`));
      }
    }
    for (const contract of soapContracts) {
      for (const [operation, blocks] of builtSoapSamples(contract.docs.page)) {
        for (const [kind, code] of Object.entries(blocks)) found.push(...cardDataIn(code).map((d) => `${contract.docs.page} ${operation} (${kind}): ${d}`));
      }
    }
    expect(found).toEqual([]);
    // The precondition: the token request's sample is there, and every field the contract marks sensitive shows
    // where its value comes from instead (the marks are read once, by @paykit/contracts).
    const token = builtOperations(builtDefinition('payments.html')).find((op) => op.operationId === 'createSingleUseToken');
    const source = token?.codeSamples.find((s) => s.lang === 'TypeScript')?.source ?? '';
    const marked = readSensitiveMarks(await readOpenApiContract(openApiContracts.find((c) => c.name === 'payments')!.root)).properties;
    expect(Object.entries(marked)).toContainEqual(['cardNumber', 'card-number']);
    expect(source).toContain("cardNumber: 'CARD_NUMBER_FROM_THE_PAYER'");
    expect(source).toContain("cvn: 'SECURITY_CODE_FROM_THE_PAYER'");
  });
});
