// The request checks, turned on for the browser client as the README shows, with the facility's alias domains.
import { createPublishableClient } from '@paykit/payments/publishable';
import { publishableRequestCheck, type RequestCheckOptions } from '@paykit/payments/validation';

const options: RequestCheckOptions = { aliasDomains: ['pay.example.com'] };

export const tokens = createPublishableClient({
  apiKey: 'pk_test',
  baseUrl: 'https://127.0.0.1/rest/v1',
  check: publishableRequestCheck(options),
});

// @ts-expect-error a check takes the operation and the prepared request.
publishableRequestCheck()(true);
