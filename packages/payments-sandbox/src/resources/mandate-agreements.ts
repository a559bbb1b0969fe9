import type { HandlerContext, HandlerTable } from '../handler-context.js';
import { visibleCustomer } from './customers.js';
import { page } from '../rules/links.js';
import { found, merchantFields, newestFirst, openModel, prefixedId } from '../state/records.js';
import { matchesQuery } from './search.js';
import { nextNumber, type OwnedRecord } from '../state/state.js';

/**
 * Mandate agreements, kept as the merchant sent them and changed by PATCH as sent (the reference publishes neither
 * their fields nor their states). The list takes query parameters the reference does not name: each one that names
 * a field of an agreement filters on it.
 */

const owned = ['agreementToken', 'customerId'];
const path = (id: string) => `/mandate-agreements/${encodeURIComponent(id)}`;
const model = (context: HandlerContext, a: OwnedRecord) => openModel('agreementToken', a, context.links.self(path(a.id)));

function create(context: HandlerContext, customerId: string | undefined) {
  const agreement: OwnedRecord = {
    id: prefixedId('MA', nextNumber(context.core.state)),
    createdAt: context.core.clock.now(),
    ...(customerId !== undefined ? { customerId } : {}),
    fields: merchantFields(context.body, owned),
  };
  context.core.state.mandateAgreements.set(agreement.id, agreement);
  return { status: 201, json: model(context, agreement), headers: { Location: context.links.href(path(agreement.id)) } };
}

export const mandateAgreementHandlers: HandlerTable = {
  createMandateAgreement: (context) => create(context, undefined),
  createMandateAgreementForCustomer: (context) => create(context, visibleCustomer(context, context.params.customerId!).customerId),
  updateMandateAgreement: (context) => {
    const id = context.params.agreementToken!;
    const agreement = found(context.core.state.mandateAgreements.get(id), 'mandate agreement', id);
    agreement.fields = { ...agreement.fields, ...merchantFields(context.body, owned) };
    return { status: 200, json: model(context, agreement) };
  },
  listMandateAgreements: (context) => {
    const items = newestFirst(context.core.state.mandateAgreements.values())
      .map((a) => model(context, a))
      .filter((a) => matchesQuery(a, context.query));
    return { status: 200, json: page(items, context.links, '/mandate-agreements', context.query) };
  },
};
