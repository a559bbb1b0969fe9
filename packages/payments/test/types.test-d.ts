import { describe, expectTypeOf, it } from 'vitest';
import {
  createPublishableClient,
  createSecretClient,
  isPaymentsError,
  type components,
  type Page,
  type PaymentsError,
} from '../src/index.js';
import { createRawClient } from '../src/raw.js';
import type { WebhookEvent } from '../src/webhooks/index.js';

const secret = createSecretClient({ apiKey: 'sk', baseUrl: 'https://api.example.test/rest/v1' });
const publishable = createPublishableClient({ apiKey: 'pk', baseUrl: 'https://api.example.test/rest/v1' });
type Schemas = components['schemas'];

describe('the key split is generated from the spec’s security', () => {
  it('gives the publishable client only the publishable operations', () => {
    expectTypeOf(publishable.singleUseTokens.create).toBeFunction();
    expectTypeOf(publishable.businesses.listAcceptedCards).toBeFunction();
    expectTypeOf(publishable.businesses.listCardSurcharges).toBeFunction();
    // @ts-expect-error taking a payment needs the secret key
    void publishable.transactions;
    // @ts-expect-error the business details are a secret-key operation
    void publishable.businesses.get;
    // @ts-expect-error 3D Secure authentication takes the secret key
    void publishable.singleUseTokens.authenticateThreeDS2;
    // @ts-expect-error the publishable client has no raw escape hatch around the split
    void publishable.raw;
    // @ts-expect-error nor can one be made from it
    void createRawClient(publishable);
  });

  it('gives the secret client no publishable operation', () => {
    expectTypeOf(secret.transactions.create).toBeFunction();
    expectTypeOf(secret.singleUseTokens.authenticateThreeDS2).toBeFunction();
    // @ts-expect-error token creation takes the publishable key
    void secret.singleUseTokens.create;
    // @ts-expect-error the accepted-cards list takes the publishable key
    void secret.businesses.listAcceptedCards;
  });
});

describe('typed parameters, bodies and answers', () => {
  it('types path parameters as positional arguments', () => {
    expectTypeOf(secret.transactions.get).parameter(0).toEqualTypeOf<string>();
    // @ts-expect-error the receipt number is required
    void secret.transactions.get();
    // @ts-expect-error a receipt number is a string
    void secret.transactions.get(42n);
  });

  it('types request bodies from the spec', () => {
    expectTypeOf(secret.aliases.register).parameter(0).toEqualTypeOf<Schemas['AliasRegistration']>();
    expectTypeOf(secret.transactions.create).parameter(0).toEqualTypeOf<Schemas['TransactionRequest']>();
    // @ts-expect-error an alias registration needs its type and business
    void secret.aliases.register({ aliasAddress: 'a@pay.example.com' });
    // @ts-expect-error the alias type is an enum
    void secret.aliases.register({ aliasAddress: 'a@pay.example.com', type: 'WEEKLY', supplierBusinessCode: 'B' });
  });

  it('types query parameters and options', () => {
    void secret.customers.search({ query: { customerNumber: 'C1' } });
    // @ts-expect-error customers are searched by customerNumber
    void secret.customers.search({ query: { customerName: 'x' } });
    // @ts-expect-error GET operations take no idempotency key
    void secret.transactions.get('1', { idempotencyKey: 'k' });
    void secret.transactions.create({ entryMode: 'STORED_CREDENTIAL' }, { idempotencyKey: 'order-1' });
    // @ts-expect-error the media types are those of the spec
    void secret.transactions.list({ accept: 'application/xml' });
  });

  it('types answers, pages and media types', async () => {
    const transaction = await secret.transactions.get('1');
    expectTypeOf(transaction.data).toEqualTypeOf<Schemas['Transaction']>();
    expectTypeOf(transaction.idempotencyKey).toEqualTypeOf<string | undefined>();
    const page = await secret.transactions.list();
    expectTypeOf(page).toExtend<Page<Schemas['Transaction'], Schemas['TransactionList']>>();
    expectTypeOf(page.items).toEqualTypeOf<Schemas['Transaction'][]>();
    const csv = await secret.transactions.list({ accept: 'text/csv' });
    expectTypeOf(csv.data).toEqualTypeOf<string>();
    const token = await publishable.singleUseTokens.create({
      supplierBusinessCode: 'B',
      accountType: 'CREDIT_CARD',
      cardNumber: '4111111111111111',
      expiryDateMonth: '12',
      expiryDateYear: '2029',
    });
    expectTypeOf(token.data.singleUseTokenId).toEqualTypeOf<string | undefined>();
  });
});

describe('the error discriminant', () => {
  it('narrows the status by kind', () => {
    const error: unknown = new Error();
    if (isPaymentsError(error)) {
      if (error.kind === 'validation') expectTypeOf(error.status).toEqualTypeOf<422>();
      if (error.kind === 'rateLimit') expectTypeOf(error.status).toEqualTypeOf<429>();
      if (error.kind === 'server') expectTypeOf(error.status).toEqualTypeOf<number>();
      if (error.kind === 'network') expectTypeOf(error.status).toEqualTypeOf<undefined>();
      if (error.kind === 'proxyRefused') expectTypeOf(error.status).toEqualTypeOf<407 | 403>();
      if (error.kind === 'configuration') expectTypeOf(error.option).toEqualTypeOf<string | undefined>();
      expectTypeOf(error.fieldErrors).toEqualTypeOf<readonly Schemas['FieldError'][]>();
      expectTypeOf(error).toExtend<PaymentsError>();
      // @ts-expect-error there is no such kind
      if (error.kind === 'teapot') void error;
    }
  });
});

describe('the webhook event union', () => {
  it('discriminates on eventType with data types from the spec', () => {
    const event = {} as WebhookEvent;
    expectTypeOf(event.eventType).toEqualTypeOf<'alias.registered' | 'alias.payment.received'>();
    // Narrowed on eventType, data is there (parseWebhookEvent refuses a notification without it): no `?.` needed.
    if (event.eventType === 'alias.registered') expectTypeOf(event.data).toEqualTypeOf<Schemas['Alias']>();
    if (event.eventType === 'alias.payment.received') expectTypeOf(event.data).toEqualTypeOf<Schemas['Transaction']>();
    if (event.eventType === 'alias.payment.received') expectTypeOf(event.data.receiptNumber).toEqualTypeOf<string>();
  });
});
