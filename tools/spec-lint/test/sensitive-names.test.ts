// Which names the rule `paykit/sensitive-marked` asks a mark for: the names our specs use, and the near misses.
import { describe, expect, it } from 'vitest';
import { looksLikeCardDataOrCredential, wordsOf } from '../rules/sensitive-marked.js';

describe('names that look like card data or a credential', () => {
  it.each([
    ['maskedCardNumber4Digits', 'masked card number 4 digits'],
    ['walletAPayToken', 'wallet a pay token'],
    ['X-Api-Key', 'x api key'],
    ['CERT_PASSWORD', 'cert password'],
    ['threeDS2AuthRequired', 'three ds 2 auth required'],
    ['cardBIN', 'card bin'],
  ])('%s reads as the words "%s"', (name, words) => {
    expect(wordsOf(name)).toBe(words);
  });

  it.each([
    'cardNumber', 'card_number', 'maskedCardNumber4Digits', 'pan', 'PAN', 'cvn', 'cvv2', 'CVC', 'securityCode', 'expiryDateMonth',
    'recurringExpiry', 'pin', 'password', 'passphrase', 'chAccPwChange', 'secret', 'apiKey', 'APIKEY', 'privateKey',
    'singleUseTokenId', 'accessToken', 'credentials', 'Authorization', 'Proxy-Authorization',
  ])('asks a mark for %s', (name) => {
    expect(looksLikeCardDataOrCredential(name)).toBe(true);
  });

  it.each([
    'cardholderName', 'cardBIN', 'cardScheme', 'cardType', 'company', 'displayAccountNumber', 'schemeTokenisation', 'Idempotency-Key',
    'X-Webhook-Signature', 'threeDS2AuthRequired', 'spinner', 'passThrough', 'expand', 'username', 'basicAuth',
  ])('asks nothing of %s', (name) => {
    expect(looksLikeCardDataOrCredential(name)).toBe(false);
  });
});
