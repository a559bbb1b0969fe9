import { describe, expect, it } from 'vitest';
import { createPublishableClient, createSecretClient } from '../src/index.js';
import * as generated from '../src/generated/operations.js';
import { publishableKeyOperations, secretKeyOperations } from '../src/generated/operations.js';

// The 64 operations of the contract and the method each must become; the three publishable ones are marked.
const expected: [operationId: string, method: string, key?: 'publishable'][] = [
  ['getFacility', 'facility.get'],
  ['getLatestApiKey', 'apiKeys.getLatest'],
  ['getBusiness', 'businesses.get'],
  ['listBusinesses', 'businesses.list'],
  ['listBusinessAcceptedCards', 'businesses.listAcceptedCards', 'publishable'],
  ['listBusinessCardSurcharges', 'businesses.listCardSurcharges', 'publishable'],
  ['queryBusinessCardSurcharge', 'businesses.queryCardSurcharge'],
  ['createSingleUseToken', 'singleUseTokens.create', 'publishable'],
  ['authenticateSingleUseTokenThreeDS2', 'singleUseTokens.authenticateThreeDS2'],
  ['listPaymentMethods', 'paymentMethods.list'],
  ['getTransaction', 'transactions.get'],
  ['listTransactions', 'transactions.list'],
  ['listTransactionsForReferenceNumber', 'transactions.listForReferenceNumber'],
  ['listTransactionsForSettlementDate', 'transactions.listForSettlementDate'],
  ['listTransactionsForAccountToken', 'transactions.listForAccountToken'],
  ['listTransactionsForCreditCard', 'transactions.listForCreditCard'],
  ['listTransactionsForBankAccount', 'transactions.listForBankAccount'],
  ['listTransactionsForNzBankAccount', 'transactions.listForNzBankAccount'],
  ['listSuspendedTransactions', 'transactions.listSuspended'],
  ['listReturnedTransactions', 'transactions.listReturned'],
  ['listOpenPreauths', 'transactions.listOpenPreauths'],
  ['listTransactionRefunds', 'transactions.listRefunds'],
  ['listTransactionRetries', 'transactions.listRetries'],
  ['createTransaction', 'transactions.create'],
  ['voidTransaction', 'transactions.void'],
  ['listTransactionsForCustomer', 'transactions.listForCustomer'],
  ['listTransactionsForRecurringPayment', 'transactions.listForRecurringPayment'],
  ['listTransactionsForPaymentBatch', 'transactions.listForPaymentBatch'],
  ['getCustomer', 'customers.get'],
  ['searchCustomers', 'customers.search'],
  ['createCustomer', 'customers.create'],
  ['updateCustomer', 'customers.update'],
  ['changeCustomerStatus', 'customers.changeStatus'],
  ['listAccountsForCustomer', 'accounts.listForCustomer'],
  ['registerAccountForCustomer', 'accounts.registerForCustomer'],
  ['getAccount', 'accounts.get'],
  ['updateAccount', 'accounts.update'],
  ['disableAccount', 'accounts.disable'],
  ['registerAccount', 'accounts.register'],
  ['listRecurringPaymentsForCustomer', 'recurringPayments.listForCustomer'],
  ['createRecurringPaymentForCustomer', 'recurringPayments.createForCustomer'],
  ['getRecurringPayment', 'recurringPayments.get'],
  ['updateRecurringPayment', 'recurringPayments.update'],
  ['stopRecurringPayment', 'recurringPayments.stop'],
  ['getCreditCardScheme', 'creditCards.getScheme'],
  ['registerAlias', 'aliases.register'],
  ['registerAliasForCustomer', 'aliases.registerForCustomer'],
  ['deregisterAlias', 'aliases.deregister'],
  ['getAlias', 'aliases.get'],
  ['listAliasesForCustomer', 'aliases.listForCustomer'],
  ['uploadPaymentFile', 'paymentFiles.upload'],
  ['listPaymentFiles', 'paymentFiles.list'],
  ['getPaymentFile', 'paymentFiles.get'],
  ['listPaymentFileErrors', 'paymentFiles.listErrors'],
  ['downloadPaymentFileCsv2Report', 'paymentFiles.downloadCsv2Report'],
  ['downloadPaymentFileCsvReport', 'paymentFiles.downloadCsvReport'],
  ['downloadPaymentFileFlatFileReport', 'paymentFiles.downloadFlatFileReport'],
  ['downloadPaymentFileMtsRejectsReport', 'paymentFiles.downloadMtsRejectsReport'],
  ['listPaymentBatchesForPaymentFile', 'paymentBatches.listForPaymentFile'],
  ['getPaymentBatch', 'paymentBatches.get'],
  ['createMandateAgreement', 'mandateAgreements.create'],
  ['createMandateAgreementForCustomer', 'mandateAgreements.createForCustomer'],
  ['listMandateAgreements', 'mandateAgreements.list'],
  ['updateMandateAgreement', 'mandateAgreements.update'],
];

const baseUrl = 'https://api.example.test/rest/v1';
const secret = createSecretClient({ apiKey: 'sk_test', baseUrl }) as unknown as Record<string, Record<string, unknown>>;
const publishable = createPublishableClient({ apiKey: 'pk_test', baseUrl }) as unknown as Record<string, Record<string, unknown>>;

describe('the generated operation table', () => {
  it('gives the publishable client no list operation: it has no pagination (nor does its bundle)', () => {
    const lists = Object.entries(publishableKeyOperations as Record<string, { list?: true }>).filter(([, spec]) => spec.list);
    expect(lists).toEqual([]);
    // The precondition: the secret table's lists are marked.
    expect((secretKeyOperations as Record<string, { list?: true }>).listTransactions?.list).toBe(true);
  });

  it('holds exactly the 64 operations of the contract', () => {
    expect(expected).toHaveLength(64);
    const generated = [...Object.keys(publishableKeyOperations), ...Object.keys(secretKeyOperations)].sort();
    expect(generated).toEqual(expected.map(([id]) => id).sort());
  });

  it.each(expected)('%s is %s on the %s client', (operationId, method, key) => {
    const [group, name] = method.split('.') as [string, string];
    const table: Record<string, { group: string; name: string }> = key ? publishableKeyOperations : secretKeyOperations;
    expect(table[operationId]).toMatchObject({ group, name });
    const [own, other] = key ? [publishable, secret] : [secret, publishable];
    expect(typeof own[group]?.[name]).toBe('function');
    expect(other[group]?.[name]).toBeUndefined();
  });

  it('marks every POST as taking the idempotency key, and no other method', () => {
    for (const spec of [...Object.values(publishableKeyOperations), ...Object.values(secretKeyOperations)] as { method: string; idempotent?: true }[]) {
      expect(spec.idempotent === true).toBe(spec.method === 'POST');
    }
  });
});

describe('the idempotency rule', () => {
  it("is read by the client from its values, each a constant of its own, which are the rule's", () => {
    const { idempotencyKeyRule: rule } = generated;
    expect(rule).not.toBeNull();
    expect([generated.idempotencyKeyHeader, generated.idempotencyKeyMinLength, generated.idempotencyKeyMaxLength, generated.idempotencyKeyPattern]).toEqual([
      rule!.header,
      rule!.minLength,
      rule!.maxLength,
      rule!.pattern,
    ]);
  });
});
