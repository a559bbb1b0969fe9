// The request checks, turned on for the browser client as the README shows.
import { createPublishableClient } from '@paykit/payments/publishable';
import { normaliseAliasAddress, publishableRequestCheck } from '@paykit/payments/validation';

export const tokens = createPublishableClient({
  apiKey: 'pk_test',
  baseUrl: 'https://127.0.0.1/rest/v1',
  check: publishableRequestCheck(),
});

export const body: unknown = normaliseAliasAddress({ aliasAddress: 'Invoice-1001@Pay.Example.com' }, { aliasDomains: ['pay.example.com'] });

// @ts-expect-error a check takes the operation and the prepared request.
publishableRequestCheck()(true);
