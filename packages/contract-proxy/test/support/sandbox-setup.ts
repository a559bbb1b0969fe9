import { startPaymentsSandbox } from '@paykit/payments-sandbox';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    sandbox: { url: string; secretKey: string; publishableKey: string };
  }
}

/** The suite's payments sandbox: started once, its address and keys given to every file. */
export default async function setup(project: TestProject) {
  const sandbox = await startPaymentsSandbox({ keys: { secret: ['sk_suite_secret'], publishable: ['pk_suite_publishable'] } });
  project.provide('sandbox', { url: sandbox.url, secretKey: sandbox.keys.secret[0]!, publishableKey: sandbox.keys.publishable[0]! });
  return () => sandbox.close();
}
