// The sandbox alone, as its README shows it: started from a merchant's test set-up, without Prism.
import { createSandboxControl, startPaymentsSandbox, type PaymentsSandbox } from '@paykit/payments-sandbox';

export async function withSandbox<T>(use: (sandbox: PaymentsSandbox) => Promise<T>): Promise<T> {
  const sandbox = await startPaymentsSandbox({ port: 0, keys: { secret: ['sk_sample'] } });
  try {
    await createSandboxControl(sandbox.origin, { token: sandbox.controlToken }).advanceClock({ ms: 1_000 });
    return await use(sandbox);
  } finally {
    await sandbox.close();
  }
}

// @ts-expect-error keys are lists of strings.
startPaymentsSandbox({ keys: { secret: 'sk_sample' } });

// Type-checked only: the control client needs the sandbox's control token.
// @ts-expect-error no token
export const withoutToken = () => createSandboxControl('http://127.0.0.1:4012');
