import type { HandlerContext, HandlerTable } from '../handler-context.js';
import { visibleCustomer } from './customers.js';
import { page } from '../rules/links.js';
import { found, merchantFields, newestFirst, openModel, prefixedId } from '../state/records.js';
import { nextNumber, type OwnedRecord } from '../state/state.js';

/** Recurring payment schedules of a customer, kept as the merchant sent them (their fields are not published). */

const owned = ['paymentScheduleId', 'customerId'];
const path = (id: string) => `/recurring-payments/${encodeURIComponent(id)}`;
const model = (context: HandlerContext, r: OwnedRecord) => openModel('paymentScheduleId', r, context.links.self(path(r.id)));
const visible = (context: HandlerContext) =>
  found(context.core.state.recurringPayments.get(context.params.paymentScheduleId!), 'recurring payment', context.params.paymentScheduleId!);

export const recurringPaymentHandlers: HandlerTable = {
  createRecurringPaymentForCustomer: (context) => {
    const { customerId } = visibleCustomer(context, context.params.customerId!);
    const record: OwnedRecord = {
      id: prefixedId('RP', nextNumber(context.core.state)),
      createdAt: context.core.clock.now(),
      customerId,
      fields: merchantFields(context.body, owned),
    };
    context.core.state.recurringPayments.set(record.id, record);
    return { status: 201, json: model(context, record), headers: { Location: context.links.href(path(record.id)) } };
  },
  getRecurringPayment: (context) => ({ status: 200, json: model(context, visible(context)) }),
  updateRecurringPayment: (context) => {
    const record = visible(context);
    record.fields = merchantFields(context.body, owned);
    return { status: 200, json: model(context, record) };
  },
  stopRecurringPayment: (context) => {
    const record = visible(context);
    record.fields = { ...record.fields, ...merchantFields(context.body, owned) };
    return { status: 200, json: model(context, record) };
  },
  listRecurringPaymentsForCustomer: (context) => {
    const { customerId } = visibleCustomer(context, context.params.customerId!);
    const items = newestFirst(context.core.state.recurringPayments.values())
      .filter((r) => r.customerId === customerId)
      .map((r) => model(context, r));
    return { status: 200, json: page(items, context.links, `/customers/${encodeURIComponent(customerId)}/recurring-payments`, context.query) };
  },
};
