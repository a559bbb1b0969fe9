import { describe, expect, it } from 'vitest';
import { undoEdits } from '../src/json-edits.js';
import { allJsonMutations, jsonMutations, mutationContext, otherIdentifierFormats, type JsonMutationContext } from '../src/json-mutations.js';
import { loadContract } from '../src/openapi-document.js';
import type { ClientOutcome } from '../src/payments-invoker.js';
import { bodyMessage, withExtraElements, xsdProblems } from '../src/soap-messages.js';
import { compareUnderMutation } from '../src/tolerance-comparison.js';
import { reportFillerFields } from '../src/tolerance-plan.js';

const context: JsonMutationContext = { identifierNames: new Set(['customerId', 'id']), openEnumNames: new Set(['cardType']) };
const sample = () => ({
  links: [{ rel: 'next', href: 'https://h/rest/v1/x?page=2', requestMethod: 'GET' }],
  data: [{ id: 'a-1', customerId: '42', card: { cardType: 'CREDIT', holder: 'A' } }],
});
const errorSample = () => ({ status: '422', customerMessage: 'Fix it', developerMessage: 'Bad field', errors: [{ fieldName: 'x', fieldValue: '1', messages: ['too long'] }] });
const rule = (name: string) => jsonMutations.find((m) => m.name === name) ?? allJsonMutations;

describe('each mutation changes what it names and can be taken back exactly', () => {
  it.each([
    { name: 'unknown-properties', body: sample, changed: (b: any) => Object.keys(b.data[0].card).some((k) => k.startsWith('paykitAddedLater')) },
    { name: 'shuffled-order', body: sample, changed: (b: any) => Object.keys(b)[0] === 'data' },
    { name: 'identifier-formats', body: sample, changed: (b: any) => otherIdentifierFormats.includes(b.data[0].customerId) && b.data[0].id !== 'a-1' },
    { name: 'reworded-messages', body: errorSample, changed: (b: any) => b.customerMessage !== 'Fix it' && b.errors[0].messages[0] !== 'too long' },
    { name: 'extra-field-errors', body: errorSample, changed: (b: any) => b.errors.length === 2 },
    { name: 'unknown-link-relations', body: sample, changed: (b: any) => b.links.length === 3 && b.links[0].rel !== 'next' },
    { name: 'open-enum-values', body: sample, changed: (b: any) => b.data[0].card.cardType === 'PAYKIT_VALUE_ADDED_LATER' },
    { name: 'all-together', body: sample, changed: (b: any) => b.links.length === 3 && b.data[0].card.cardType !== 'CREDIT' },
  ])('$name', ({ name, body, changed }) => {
    const original = body();
    const mutated = body();
    const edits = rule(name).apply(mutated, context);
    expect(changed(mutated)).toBe(true);
    expect(JSON.stringify(mutated)).not.toBe(JSON.stringify(original));
    expect(undoEdits(mutated, edits)).toEqual(original);
  });

  it('identifier formats stay within 255 characters', () => {
    for (const format of otherIdentifierFormats) expect(format.length).toBeLessThanOrEqual(255);
    expect(Math.max(...otherIdentifierFormats.map((f) => f.length))).toBe(255);
  });

  it('reads the identifier and open-enum names from the payments spec', () => {
    const fromSpec = mutationContext(loadContract('payments'));
    // cardType in answers; entryMode, eci and transactionType in the transaction request (their published values).
    expect(fromSpec.openEnumNames).toEqual(new Set(['cardType', 'transactionType', 'eci', 'entryMode']));
    expect(fromSpec.identifierNames.has('receiptNumber')).toBe(true);
    expect(fromSpec.identifierNames.has('customerName')).toBe(false);
  });
});

describe('the tolerance comparison fails whenever a client loses or alters data', () => {
  const delivered = { data: [{ id: 'b', extra: 1 }], links: [] };
  const baseline: ClientOutcome = { outcome: 'success', status: 200, data: { data: [{ id: 'a' }], links: [] }, page: { items: [{ id: 'a' }], hasNextPage: false } };
  const edits = [
    { op: 'replace' as const, path: ['data', 0, 'id'], original: 'a' },
    { op: 'add' as const, path: ['data', 0, 'extra'] },
  ];
  const tolerant: ClientOutcome = { outcome: 'success', status: 200, data: structuredClone(delivered), page: { items: structuredClone(delivered.data), hasNextPage: false } };

  const restore = (body: unknown) => undoEdits(body, edits);
  it.each([
    { case: 'a tolerant client', outcome: tolerant, problems: 0 },
    { case: 'a client that drops unknown properties', outcome: { ...tolerant, data: { data: [{ id: 'b' }], links: [] } } as ClientOutcome, problems: 1 },
    { case: 'a client that rejects the answer', outcome: { outcome: 'error', kind: 'input', status: undefined, body: undefined, customerMessage: undefined, developerMessage: undefined, fieldErrors: [] } as ClientOutcome, problems: 1 },
    { case: 'a client that finds a next page in an unknown link', outcome: { ...tolerant, page: { items: delivered.data, hasNextPage: true } } as ClientOutcome, problems: 1 },
    { case: 'a client that rewrites a value', outcome: { ...tolerant, data: { data: [{ id: 'B', extra: 1 }], links: [] } } as ClientOutcome, problems: 1 },
  ])('$case: $problems problem(s)', ({ outcome, problems }) => {
    expect(compareUnderMutation(baseline, outcome, delivered, restore)).toHaveLength(problems);
  });
});

describe('report filler fields', () => {
  it.each([
    { text: 'A,B\n1,2\n', mutated: 'A,B,Filler 9\n1,2,filler value 1\n' },
    { text: 'A,B\n1,2', mutated: 'A,B,Filler 9\n1,2,filler value 1' },
  ])('adds a column to every line of $text and takes it back', ({ text, mutated }) => {
    const result = reportFillerFields.apply(text, 'text/csv');
    expect(result?.text).toBe(mutated);
    expect(result?.restore(mutated)).toBe(text);
  });

  it('leaves other media types alone', () => {
    expect(reportFillerFields.apply('{"a":1}', 'application/json')).toBeUndefined();
  });
});

describe('SOAP helpers', () => {
  const envelope =
    '<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:fx="urn:paykit:file-exchange:v1">' +
    '<soap:Body><fx:downloadFilesResponse><fx:file><fx:fileID>1</fx:fileID><fx:fileContent>YQ==</fx:fileContent></fx:file></fx:downloadFilesResponse></soap:Body></soap:Envelope>';

  it('takes the message out of the envelope with its namespace declarations, valid against the XSD', async () => {
    const message = bodyMessage(envelope);
    expect(message).toMatch(/^<fx:downloadFilesResponse[^>]*xmlns:fx="urn:paykit:file-exchange:v1"/);
    expect(await xsdProblems(message)).toEqual([]);
  });

  it('adds unknown elements at every complex level and a header, which the XSD then refuses', async () => {
    const { xml, added } = withExtraElements(envelope, ['downloadFilesResponse', 'file'], 'urn:paykit:file-exchange:v1');
    expect(added).toBe(5);
    expect(xml).toContain('<soap:Header>');
    expect(await xsdProblems(bodyMessage(xml))).not.toEqual([]);
  });
});
