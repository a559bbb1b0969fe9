import { randomUUID } from 'node:crypto';
import { ApiError, invalidField } from '../rules/api-error.js';
import { rejectedAliasPrefix } from '../rules/conventions.js';
import type { HandlerContext, HandlerTable, SandboxCore } from '../handler-context.js';
import { createCustomerRecord, visibleCustomer } from './customers.js';
import { businessInBody } from './facility.js';
import { page, type Links } from '../rules/links.js';
import { centsOfText, exactCents, fromCents, maxAmountText, money } from '../rules/money.js';
import { found, newestFirst } from '../state/records.js';
import { aliasStatusMachine } from '../rules/state-machine.js';
import type { AliasRecord } from '../state/state.js';
import { newTransaction, transactionModel } from './transactions.js';

/**
 * Aliases, driven by the contract's alias status table: registration (`PENDING`, then `REGISTERED` after the
 * registration delay, or `REJECTED` by the sandbox's convention), deregistration by PATCH, and payers' payments
 * simulated through the control interface. Each change goes through the table, which says where it leads and which
 * webhook event it posts.
 */

type Body = Record<string, unknown>;

export function aliasModel(a: AliasRecord, links: Links): Body {
  return {
    id: a.id,
    aliasAddress: a.aliasAddress,
    customerId: a.customerId,
    type: a.type,
    supplierBusinessCode: a.supplierBusinessCode,
    ...(a.paymentAmount !== undefined ? { paymentAmount: money(a.paymentAmount, a.currency) } : {}),
    status: a.status,
    ...(a.statusDescription ? { statusDescription: a.statusDescription } : {}),
    links: links.self(`/aliases/${encodeURIComponent(a.id)}`),
  };
}

/** `pay.example.com` allows that domain; `*.example.com` also allows its subdomains. */
function domainAllowed(domain: string, configured: readonly string[]): boolean {
  return configured.some((entry) => {
    const wanted = entry.toLowerCase();
    if (!wanted.startsWith('*.')) return domain === wanted;
    const parent = wanted.slice(2);
    return domain === parent || domain.endsWith(`.${parent}`);
  });
}

/** Aliases that still hold their address: a second registration of it is refused. */
const holdsAddress = (a: AliasRecord) => ['PENDING', 'REGISTERED', 'PENDING_DEREGISTRATION'].includes(a.status);

function register(context: HandlerContext, customerId: string | undefined) {
  const { core } = context;
  const body = context.body as Body;
  const business = businessInBody(context, body.supplierBusinessCode);
  const aliasAddress = String(body.aliasAddress).toLowerCase(); // the service lowercases the value
  const domain = aliasAddress.slice(aliasAddress.lastIndexOf('@') + 1);
  if (!domainAllowed(domain, core.facility.aliasDomains)) throw invalidField('aliasAddress', body.aliasAddress, `has a domain (${domain}) not configured on the facility`);
  if ([...core.state.aliases.values()].some((a) => a.aliasAddress === aliasAddress && holdsAddress(a))) {
    throw invalidField('aliasAddress', body.aliasAddress, 'is already registered');
  }
  const paymentAmount = typeof body.paymentAmount === 'string' ? centsOfText(body.paymentAmount) : undefined;
  if (typeof body.paymentAmount === 'string' && paymentAmount === undefined) {
    throw invalidField('paymentAmount', body.paymentAmount, `must be at most ${maxAmountText} (the sandbox's limit)`);
  }
  const fired = aliasStatusMachine.fire(null, ['register']);
  const owner = customerId ?? createCustomerRecord(core, { customerNumber: `ALIAS-${randomUUID()}` }).customerId;
  const alias: AliasRecord = {
    id: randomUUID(),
    createdAt: core.clock.now(),
    aliasAddress,
    customerId: owner,
    type: body.type as AliasRecord['type'],
    supplierBusinessCode: business.supplierBusinessCode,
    ...(paymentAmount !== undefined ? { paymentAmount } : {}),
    currency: business.currency,
    status: fired.to!,
  };
  core.state.aliases.set(alias.id, alias);
  const delay = body.registrationPriority === 'ATTENDED' ? 0 : core.settings.aliasRegistrationDelayMs;
  core.clock.schedule('alias.complete-registration', alias.id, delay);
  return {
    status: fired.transition.response!,
    json: aliasModel(alias, context.links),
    headers: { Location: context.links.href(`/aliases/${alias.id}`) },
  };
}

/** Registration completes, or is refused for an alias whose local part starts with the sandbox's rejection prefix. */
export function completeRegistration(core: SandboxCore, aliasId: string): void {
  const alias = core.state.aliases.get(aliasId);
  if (!alias || alias.status !== 'PENDING') return;
  const refused = alias.aliasAddress.startsWith(rejectedAliasPrefix);
  const fired = aliasStatusMachine.fire(alias.status, [refused ? 'registration-refused' : 'registration-completes']);
  alias.status = fired.to!;
  if (refused) alias.statusDescription = `The sandbox refuses aliases whose local part starts with "${rejectedAliasPrefix}".`;
  if (fired.transition.emits) core.events.emit(fired.transition.emits, aliasModel(alias, core.links()));
}

export function completeDeregistration(core: SandboxCore, aliasId: string): void {
  const alias = core.state.aliases.get(aliasId);
  if (!alias || !aliasStatusMachine.allows('deregistration-completes', alias.status)) return;
  alias.status = aliasStatusMachine.fire(alias.status, ['deregistration-completes']).to!;
}

export interface AliasPaymentResult {
  /** `accepted`: a transaction was made; `returned`: the amount did not match and went back to the payer. */
  outcome: 'accepted' | 'returned';
  transaction?: Body;
  reason?: string;
}

/** A payer pays to an alias from their banking app (simulated through the control interface). */
export function receiveAliasPayment(core: SandboxCore, aliasId: string, amount: number): AliasPaymentResult {
  const alias = found(core.state.aliases.get(aliasId), 'alias', aliasId);
  const cents = exactCents(amount);
  if (cents === undefined || cents <= 0) throw new ApiError(422, `The amount must be positive with at most two decimal places, and at most ${maxAmountText}.`);
  const mismatch = alias.type === 'SINGLE' && alias.paymentAmount !== undefined && alias.paymentAmount !== cents;
  const candidate = mismatch ? 'payment-returned' : alias.type === 'SINGLE' ? 'payment-received-single' : 'payment-received-static';
  if (!aliasStatusMachine.allows(candidate, alias.status)) {
    throw new ApiError(422, `The alias is ${alias.status}: it does not accept payments.`);
  }
  const fired = aliasStatusMachine.fire(alias.status, [candidate]);
  if (mismatch) {
    return { outcome: 'returned', reason: `The SINGLE alias only accepts ${money(alias.paymentAmount!, alias.currency).displayAmount}, not ${fromCents(cents)}.` };
  }
  const transaction = newTransaction(core, {
    transactionType: 'PAYMENT',
    status: 'Approved',
    principal: cents,
    surcharge: 0, // automatic surcharges do not apply to alias payments
    currency: alias.currency,
    supplierBusinessCode: alias.supplierBusinessCode,
    accountType: 'ALIAS',
    aliasId: alias.id,
    customerId: alias.customerId,
    ipAddress: null,
    comment: null,
    request: {},
  });
  alias.status = fired.to!;
  const model = transactionModel(core, transaction, core.links());
  if (fired.transition.emits) core.events.emit(fired.transition.emits, model);
  return { outcome: 'accepted', transaction: model };
}

export const aliasHandlers: HandlerTable = {
  registerAlias: (context) => register(context, undefined),
  registerAliasForCustomer: (context) => register(context, visibleCustomer(context, context.params.customerId!).customerId),
  getAlias: (context) => {
    const id = context.params.id!;
    return { status: 200, json: aliasModel(found(context.core.state.aliases.get(id), 'alias', id), context.links) };
  },
  deregisterAlias: (context) => {
    const id = context.params.id!;
    const alias = found(context.core.state.aliases.get(id), 'alias', id);
    const fired = aliasStatusMachine.fire(alias.status, ['deregister', 'deregister-refused']);
    if (fired.transition.id === 'deregister-refused') {
      throw new ApiError(fired.transition.response!, `The alias is ${alias.status}; only a REGISTERED alias can be deregistered.`, {
        errors: [{ fieldName: 'status', fieldValue: 'DEREGISTERED', messages: [`the alias is ${alias.status}, not REGISTERED`] }],
      });
    }
    alias.status = fired.to!;
    context.core.clock.schedule('alias.complete-deregistration', alias.id, context.core.settings.aliasDeregistrationDelayMs);
    return { status: fired.transition.response! };
  },
  listAliasesForCustomer: (context) => {
    const { customerId } = visibleCustomer(context, context.params.customerId!);
    const status = context.query.get('status');
    const items = newestFirst(context.core.state.aliases.values())
      .filter((a) => a.customerId === customerId && (status === null || a.status === status))
      .map((a) => aliasModel(a, context.links));
    return { status: 200, json: page(items, context.links, `/customers/${encodeURIComponent(customerId)}/aliases`, context.query) };
  },
};
