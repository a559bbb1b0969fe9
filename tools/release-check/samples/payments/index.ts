// The server-side client as the README shows it, with the typed result and error narrowing merchants rely on.
import { createSecretClient, isPaymentsError, transactionOutcome, type PaymentsError } from '@paykit/payments';

export async function readTransaction(apiKey: string): Promise<string> {
  const payments = createSecretClient({ apiKey, baseUrl: 'http://127.0.0.1:4010/rest/v1' });
  try {
    const result = await payments.transactions.get('1000000001');
    const attempts: number = result.attempts;
    return `${transactionOutcome(result)} after ${attempts} attempt(s)`;
  } catch (error) {
    if (isPaymentsError(error) && error.kind === 'notFound') return 'no such transaction';
    throw error;
  }
}

export function describeError(error: PaymentsError): string {
  return `${error.kind} ${error.status ?? ''}`;
}

// @ts-expect-error the options need an apiKey: the types are real, not `any`.
createSecretClient({ baseUrl: 'http://127.0.0.1:4010/rest/v1' });
