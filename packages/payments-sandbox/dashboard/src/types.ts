// Shapes the dashboard takes from the generated client's signatures.
import type { control } from './api.js';

export type ListTransactionsQuery = NonNullable<Parameters<typeof control.listTransactions>[0]>;
export type ListDeliveriesQuery = NonNullable<Parameters<typeof control.listWebhookDeliveries>[0]>;
