// The browser client: only the operations a publishable key may call.
import { createPublishableClient, isPaymentsError } from '@paykit/payments/publishable';

export async function createToken(apiKey: string): Promise<string | undefined> {
  const tokens = createPublishableClient({ apiKey, baseUrl: 'https://127.0.0.1/rest/v1' });
  try {
    const { data, status } = await tokens.singleUseTokens.create({
      supplierBusinessCode: 'MY_BUSINESS',
      accountType: 'CREDIT_CARD',
      cardNumber: '4111111111111111',
      expiryDateMonth: '12',
      expiryDateYear: '30',
    });
    return status === 201 ? JSON.stringify(data) : undefined;
  } catch (error) {
    if (isPaymentsError(error)) return error.customerMessage;
    throw error;
  }
}

// @ts-expect-error the publishable client has no transactions: a secret-key operation does not compile.
export const notThere = (apiKey: string) => createPublishableClient({ apiKey }).transactions;
