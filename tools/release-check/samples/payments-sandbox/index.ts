// The sandbox alone, as its README shows it: started from a merchant's test set-up, without Prism.
import { createSandboxControl, startPaymentsSandbox, type PaymentsSandbox } from '@paykit/payments-sandbox';

export async function withSandbox<T>(use: (sandbox: PaymentsSandbox) => Promise<T>): Promise<T> {
  const sandbox = await startPaymentsSandbox({ port: 0, keys: { secret: ['sk_sample'] } });
  try {
    await createSandboxControl(sandbox.origin).advanceClock(1_000);
    return await use(sandbox);
  } finally {
    await sandbox.close();
  }
}

// @ts-expect-error keys are lists of strings.
startPaymentsSandbox({ keys: { secret: 'sk_sample' } });
