// What the payments schemas accept and reject, checked with a JSON Schema 2020-12 validator (Ajv, the engine inside
// Prism and Redocly) on the bundled contract, so that the mock and the generated validators reject bad input the way
// the reference says the service does.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { bundleOpenApi, paymentsContract } from '@paykit/contracts';
import { beforeAll, describe, expect, it } from 'vitest';

let validators: Map<string, ValidateFunction>;

beforeAll(async () => {
  const spec = await bundleOpenApi(paymentsContract.root);
  // `discriminator` with `mapping` is an OpenAPI keyword Ajv does not support; the `oneOf` it annotates decides alone.
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ ...spec, $id: 'payments' });
  const schemas = Object.keys((spec.components as { schemas: Record<string, unknown> }).schemas);
  validators = new Map(schemas.map((name) => [name, ajv.getSchema(`payments#/components/schemas/${name}`)!]));
});

const card = {
  supplierBusinessCode: 'TEST_BUSINESS',
  accountType: 'CREDIT_CARD',
  cardNumber: '4111111111111111',
  expiryDateMonth: '12',
  expiryDateYear: '2029',
};
const browserProfile = {
  browserJavaEnabled: false,
  browserLanguage: 'en-AU',
  browserScreenHeight: '1080',
  browserScreenWidth: '1920',
  browserColorDepth: '24',
  browserTZ: '-600',
};
const alias = { aliasAddress: 'invoice-1001@pay.example.com', type: 'SINGLE', supplierBusinessCode: 'TEST_BUSINESS' };
const threeDS = { messageCategory: '01', threeDSRequestorAuthenticationInd: '01', currency: 'AUD' };
const payment = { transactionType: 'PAYMENT', principalAmount: 19.99, currency: 'AUD', entryMode: 'STORED_CREDENTIAL' };

/** [schema, what, value, accepted] */
const cases: [string, string, unknown, boolean][] = [
  ['SingleUseTokenRequest', 'a card', card, true],
  ['SingleUseTokenRequest', 'a card with 3D Secure and a browser profile', { ...card, threeDS2: true, browserProfile }, true],
  ['SingleUseTokenRequest', 'a card asking for 3D Secure without a browser profile', { ...card, threeDS2: true }, false],
  ['SingleUseTokenRequest', 'a card without its number', { ...card, cardNumber: undefined }, false],
  ['SingleUseTokenRequest', 'a two-digit expiry year', { ...card, expiryDateYear: '29' }, false],
  ['SingleUseTokenRequest', 'a two-digit security code', { ...card, cvn: '12' }, false],
  ['SingleUseTokenRequest', 'no business', { ...card, supplierBusinessCode: undefined }, false],
  ['SingleUseTokenRequest', 'an unknown account type', { ...card, accountType: 'CHEQUE' }, false],
  [
    'SingleUseTokenRequest',
    'an Australian bank account',
    { supplierBusinessCode: 'B', accountType: 'DIRECT_DEBIT', accountName: 'A', bsb: '000-000', accountNumber: '1' },
    true,
  ],
  ['SingleUseTokenRequest', 'a bank account without its BSB', { supplierBusinessCode: 'B', accountType: 'DIRECT_DEBIT', accountName: 'A', accountNumber: '1' }, false],
  ['SingleUseTokenRequest', 'a wallet B token from an app', { supplierBusinessCode: 'B', accountType: 'WALLET_B_PAY', displayAccountNumber: 'Visa 1111', walletBPayToken: 't' }, true],
  ['SingleUseTokenRequest', 'a wallet token without a display number', { supplierBusinessCode: 'B', accountType: 'WALLET_A_PAY' }, false],
  ['BrowserProfile', 'a complete profile', browserProfile, true],
  ['BrowserProfile', 'a colour depth outside the eight values', { ...browserProfile, browserColorDepth: '30' }, false],
  ['BrowserProfile', 'a 9-character language tag', { ...browserProfile, browserLanguage: 'en-AU-abc' }, false],
  ['BrowserProfile', 'a 7-digit screen height', { ...browserProfile, browserScreenHeight: '1000000' }, false],
  ['BrowserProfile', 'a 6-character time zone offset', { ...browserProfile, browserTZ: '-10000' }, false],
  ['BrowserProfile', 'a missing field', { ...browserProfile, browserTZ: undefined }, false],
  ['AliasRegistration', 'a single alias with an amount', { ...alias, paymentAmount: '25.50', registrationPriority: 'ATTENDED' }, true],
  ['AliasRegistration', 'a static alias', { ...alias, type: 'STATIC' }, true],
  ['AliasRegistration', 'a static alias with an amount', { ...alias, type: 'STATIC', paymentAmount: '25.50' }, false],
  ['AliasRegistration', 'an amount sent as a number', { ...alias, paymentAmount: 25.5 }, false],
  ['AliasRegistration', 'whitespace in the alias', { ...alias, aliasAddress: 'invoice 1001@pay.example.com' }, false],
  ['AliasRegistration', 'an alias of 256 characters', { ...alias, aliasAddress: `${'a'.repeat(240)}@pay.example.com` }, false],
  ['AliasRegistration', 'an alias of 255 characters', { ...alias, aliasAddress: `${'a'.repeat(239)}@pay.example.com` }, true],
  ['AliasRegistration', 'an alias that is not email-shaped', { ...alias, aliasAddress: 'invoice-1001' }, false],
  ['AliasRegistration', 'no business', { ...alias, supplierBusinessCode: undefined }, false],
  ['AliasRegistration', 'an unknown priority', { ...alias, registrationPriority: 'URGENT' }, false],
  ['AliasRegistration', 'a field the reference does not name', { ...alias, displayName: 'x' }, false],
  ['CustomerAliasRegistration', 'the same fields as without a customer', alias, true],
  ['AliasDeregistration', 'status DEREGISTERED', { status: 'DEREGISTERED' }, true],
  ['AliasDeregistration', 'any other status', { status: 'REGISTERED' }, false],
  ['ThreeDS2AuthenticationRequest', 'the three required fields', threeDS, true],
  ['ThreeDS2AuthenticationRequest', 'no currency', { ...threeDS, currency: undefined }, false],
  ['ThreeDS2AuthenticationRequest', 'a recurring frequency of 9999', { ...threeDS, recurringFrequency: '9999' }, true],
  ['ThreeDS2AuthenticationRequest', 'a recurring frequency of 10000', { ...threeDS, recurringFrequency: '10000' }, false],
  ['ThreeDS2AuthenticationRequest', 'instalments of 1000', { ...threeDS, purchaseInstalData: '1000' }, false],
  ['ThreeDS2AuthenticationRequest', 'a dashed recurring expiry', { ...threeDS, recurringExpiry: '2026-12-31' }, false],
  ['ThreeDS2AuthenticationRequest', 'a YYYYMMDD recurring expiry', { ...threeDS, recurringExpiry: '20261231' }, true],
  ['ThreeDS2AuthenticationRequest', 'a 51-character address line', { ...threeDS, billAddrLine1: 'x'.repeat(51) }, false],
  ['ThreeDS2AuthenticationRequest', 'a 1-digit gift card count', { ...threeDS, giftCardCount: '1' }, false],
  ['ThreeDS2AuthenticationRequest', 'an alphabetic country code', { ...threeDS, billAddrCountry: 'AUS' }, false],
  ['ThreeDS2AuthenticationRequest', 'a 16-digit phone number', { ...threeDS, mobilePhone: '6'.repeat(16) }, false],
  ['ThreeDS2AuthenticationRequest', 'addrMatch other than Y or N', { ...threeDS, addrMatch: 'yes' }, false],
  ['ThreeDS2AuthenticationRequest', 'a field not in the table', { ...threeDS, browserIP: '192.0.2.1' }, false],
  ['TransactionRequest', 'a payment of 19.99', payment, true],
  ['TransactionRequest', 'a payment without entryMode', { ...payment, entryMode: undefined }, false],
  ['TransactionRequest', 'an amount as a string', { ...payment, principalAmount: '19.99' }, false],
  ['TransactionRequest', 'an unpublished field of another use', { ...payment, originalReceiptNumber: '1000000001' }, true],
  ['CustomerCreation', 'a name and a number', { customerName: 'A', customerNumber: 'C-1' }, true],
  ['CustomerCreation', 'no customer number', { customerName: 'A' }, false],
  ['SingleUseToken', 'a wallet A token', { singleUseTokenId: 't', accountType: 'WALLET_A_PAY', links: [] }, true],
  ['SingleUseToken', 'a card token with a new card type', { singleUseTokenId: 't', accountType: 'CREDIT_CARD', creditCard: { cardType: 'PREPAID' } }, true],
  ['SingleUseToken', 'a card token with an unknown scheme', { singleUseTokenId: 't', accountType: 'CREDIT_CARD', creditCard: { cardScheme: 'OTHER' } }, false],
  ['Transaction', 'null fraud result, comment and address', { receiptNumber: '1', fraudGuardResult: null, comment: null, ipAddress: null }, true],
  ['Transaction', 'a property the reference does not show', { receiptNumber: '1', merchantAdviceCode: '01' }, true],
  ['RecipientAccount', 'an RTGS account in the Australian shape', { type: 'RTGS', accountName: 'A', bsbNumber: '000-000', accountNumber: '1', currency: 'AUD' }, true],
  ['RecipientAccount', 'a bill payment in another currency than AUD', { type: 'BILLPAY', currency: 'NZD', billerNumber: '1', crn: '2' }, false],
  ['RecipientAccount', 'an unknown type', { type: 'CHEQUE' }, false],
  ['AuFundingAccount', 'defaultAccount as a boolean', { defaultAccount: true }, false],
  ['AuFundingAccount', 'defaultAccount as the string true', { defaultAccount: 'true' }, true],
  ['Remitter', 'a three-letter country', { remitterCountry: 'AUS' }, false],
  ['PaymentMethodList', 'a page of 21 methods', { links: [], data: Array.from({ length: 21 }, () => ({ methodCode: 'RTGS' })) }, false],
  ['PaymentMethod', 'an unknown method code', { methodCode: 'SWIFT' }, false],
  ['DateMonth', 'a month', '2026-03', true],
  ['DateMonth', 'a thirteenth month', '2026-13', false],
];

/** Drops the keys set to undefined, so that a case can remove a field with `{ ...base, field: undefined }`. */
const clean = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('payments schemas', () => {
  const table = cases.map(([schema, what, value, accepted]) => ({ schema, what, value, accepted }));
  it.each(table)('$schema: $what (accepted: $accepted)', ({ schema, value, accepted }) => {
    const validate = validators.get(schema);
    expect(validate, `schema ${schema} exists`).toBeDefined();
    const valid = validate!(clean(value));
    expect(valid, JSON.stringify(validate!.errors)).toBe(accepted);
  });
});
