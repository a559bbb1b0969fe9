import { ApiError, invalidField } from '../rules/api-error.js';
import type { HandlerContext, HandlerTable, SandboxCore } from '../handler-context.js';
import { page } from '../rules/links.js';
import { found, merchantFields, newestFirst } from '../state/records.js';
import { nextNumber, type CustomerRecord } from '../state/state.js';

/**
 * Customers: the reference publishes `customerId` (generated), `customerNumber` (the merchant's, unique) and
 * `customerName`; the other fields a merchant sends are kept and given back as sent.
 */

const owned = ['customerId'];

export const customerModel = (context: HandlerContext, c: CustomerRecord) => ({
  ...c.fields,
  customerId: c.customerId,
  links: context.links.self(`/customers/${encodeURIComponent(c.customerId)}`),
});

function numberInUse(core: SandboxCore, customerNumber: unknown, except?: string): boolean {
  return [...core.state.customers.values()].some((c) => c.customerId !== except && c.fields.customerNumber === customerNumber);
}

export function createCustomerRecord(core: SandboxCore, fields: Record<string, unknown>): CustomerRecord {
  const customer: CustomerRecord = { customerId: String(1_000_000_000 + nextNumber(core.state)), createdAt: core.clock.now(), fields };
  core.state.customers.set(customer.customerId, customer);
  return customer;
}

/** The claim that makes two creations of one customer number at the same time conflict (409). */
export const customerNumberClaim = (context: Pick<HandlerContext, 'body'>) => {
  const number = (context.body as Record<string, unknown> | undefined)?.customerNumber;
  return typeof number === 'string' ? `customerNumber:${number}` : undefined;
};

export const visibleCustomer = (context: HandlerContext, id: string) => found(context.core.state.customers.get(id), 'customer', id);

export const customerHandlers: HandlerTable = {
  createCustomer: (context) => {
    const fields = merchantFields(context.body, owned);
    if (numberInUse(context.core, fields.customerNumber)) throw invalidField('customerNumber', fields.customerNumber, 'is already the number of another customer');
    const customer = createCustomerRecord(context.core, fields);
    return { status: 201, json: customerModel(context, customer), headers: { Location: context.links.href(`/customers/${customer.customerId}`) } };
  },
  getCustomer: (context) => ({ status: 200, json: customerModel(context, visibleCustomer(context, context.params.customerId!)) }),
  updateCustomer: (context) => {
    const customer = visibleCustomer(context, context.params.customerId!);
    const fields = merchantFields(context.body, owned);
    if (fields.customerNumber !== undefined && numberInUse(context.core, fields.customerNumber, customer.customerId)) {
      throw invalidField('customerNumber', fields.customerNumber, 'is already the number of another customer');
    }
    // PUT replaces; a replacement without a number keeps the one the customer has.
    customer.fields = { customerNumber: customer.fields.customerNumber, ...fields };
    return { status: 200, json: customerModel(context, customer) };
  },
  changeCustomerStatus: (context) => {
    const customer = visibleCustomer(context, context.params.customerId!);
    const fields = merchantFields(context.body, [...owned, 'customerNumber']);
    customer.fields = { ...customer.fields, ...fields };
    return { status: 200, json: customerModel(context, customer) };
  },
  searchCustomers: (context) => {
    const number = context.query.get('customerNumber');
    const items = newestFirst(context.core.state.customers.values())
      .filter((c) => number === null || c.fields.customerNumber === number)
      .map((c) => customerModel(context, c));
    return { status: 200, json: page(items, context.links, '/customers', context.query) };
  },
};

/** Raised by the pipeline when a claimed customer number is being created by another request. */
export const concurrentCreation = (claim: string) =>
  new ApiError(409, `Another request is creating the same customer (${claim.replace(/^[^:]*:/, '')}) at this moment.`);
