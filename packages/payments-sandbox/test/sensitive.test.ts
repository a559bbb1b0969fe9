import { describe, expect, it } from 'vitest';
import { paymentsSensitive } from '../src/generated/sensitive.js';
import { describeKept, keepable, maskCardNumber } from '../src/rules/sensitive.js';

// What the sandbox keeps of marked values: the rules of the generated marks (card number: its last four digits;
// security code, secret: nothing), at any depth. The names come from the contract's table.
const cardName = Object.keys(paymentsSensitive.properties).find((name) => paymentsSensitive.properties[name as keyof typeof paymentsSensitive.properties] === 'card-number')!;
const codeName = Object.keys(paymentsSensitive.properties).find((name) => paymentsSensitive.properties[name as keyof typeof paymentsSensitive.properties] === 'card-security-code')!;

describe('payments sandbox: what is kept of sensitive values', () => {
  it.each([
    ['4111111111111111', 'xxxxxxxxxxxx1111'],
    ['4111 1111 1111 1111', 'xxxx xxxx xxxx 1111'],
    ['411111xxxxxxx111', 'xxxxxxxxxxxxx111'],
    ['123', '123'],
    ['', ''],
  ])('a card number %j is kept as %j', (given, kept) => {
    expect(maskCardNumber(given)).toBe(kept);
  });

  it('masks card numbers and drops security codes at any depth, in lists too, leaving the rest as it is', () => {
    const given = {
      note: 'kept',
      [cardName]: 4111111111111111,
      [codeName]: '123',
      nested: { deeper: [{ [cardName]: '5555555555554444', [codeName]: 9876, other: 1 }], when: null },
      [`${cardName}Label`]: 'not a mark: a name of its own',
    };
    expect(keepable(given)).toEqual({
      note: 'kept',
      [cardName]: 'xxxxxxxxxxxx1111',
      nested: { deeper: [{ [cardName]: 'xxxxxxxxxxxx4444', other: 1 }], when: null },
      [`${cardName}Label`]: 'not a mark: a name of its own',
    });
    expect(given[cardName], 'the original is left alone').toBe(4111111111111111);
  });

  it('treats a field error\'s value as the field it names (the contract\'s echo mark)', () => {
    const errors = [
      { fieldName: cardName, fieldValue: '4111111111111111', messages: [] },
      { fieldName: `creditCard.${codeName}`, fieldValue: '123', messages: [] },
      { fieldName: 'principalAmount', fieldValue: '10', messages: [] },
    ];
    expect(keepable({ errors })).toEqual({
      errors: [
        { fieldName: cardName, fieldValue: 'xxxxxxxxxxxx1111', messages: [] },
        { fieldName: `creditCard.${codeName}`, messages: [] },
        { fieldName: 'principalAmount', fieldValue: '10', messages: [] },
      ],
    });
  });

  it('describes a value for a field error as it is kept: a whole object with its marks applied, a marked body masked throughout', () => {
    expect(describeKept({ [cardName]: '4111111111111111', [codeName]: '123', name: 'A' }, undefined)).toBe(JSON.stringify({ [cardName]: 'xxxxxxxxxxxx1111', name: 'A' }));
    expect(describeKept('123', 'card-security-code')).toBe('');
    expect(describeKept({ pan: '5555555555554444', flag: true }, 'card-number')).toBe(JSON.stringify({ pan: 'xxxxxxxxxxxx4444', flag: true }));
  });

  it('leaves `constructor` and `__proto__` alone: marks are own keys of the table only', () => {
    const given = JSON.parse('{"constructor":"4111111111111111","__proto__":{"x":1}}') as Record<string, unknown>;
    expect(keepable(given)).toEqual(given);
  });
});
