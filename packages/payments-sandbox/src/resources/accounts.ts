import type { HandlerContext, HandlerTable } from '../handler-context.js';
import { page } from '../rules/links.js';
import { found, merchantFields, newestFirst } from '../state/records.js';
import { nextNumber, type AccountRecord } from '../state/state.js';
import { tokenForUse } from './tokens.js';
import { visibleCustomer } from './customers.js';

/**
 * The account store. The reference publishes neither the request nor the account fields; the sandbox stores the
 * merchant's fields as sent, except the payment means (the token's masked details take their place) and what the
 * contract marks sensitive (`merchantFields`), and, for an account registered from a single-use token (which
 * consumes it), the token's masked details under the token model's names.
 */

const rawDetails = ['singleUseTokenId', 'creditCard', 'bankAccount', 'nzBankAccount', 'accountToken', 'customerId'];

const accountModel = (context: HandlerContext, a: AccountRecord) => ({
  ...a.fields,
  ...a.details,
  accountToken: a.accountToken,
  ...(a.customerId !== undefined ? { customerId: a.customerId } : {}),
  links: context.links.self(`/accounts/${encodeURIComponent(a.accountToken)}`),
});

function register(context: HandlerContext, customerId: string | undefined) {
  const body = (context.body ?? {}) as Record<string, unknown>;
  const use = body.singleUseTokenId !== undefined ? tokenForUse(context.core, body.singleUseTokenId) : undefined;
  use?.consume();
  const account: AccountRecord = {
    accountToken: String(nextNumber(context.core.state)).padStart(16, '0'),
    createdAt: context.core.clock.now(),
    ...(customerId !== undefined ? { customerId } : {}),
    ...(use ? { accountType: use.token.accountType, ...(use.token.cardScheme ? { cardScheme: use.token.cardScheme } : {}) } : {}),
    details: use?.token.details ?? {},
    fields: merchantFields(body, rawDetails),
  };
  context.core.state.accounts.set(account.accountToken, account);
  return { status: 201, json: accountModel(context, account), headers: { Location: context.links.href(`/accounts/${account.accountToken}`) } };
}

const visibleAccount = (context: HandlerContext) => found(context.core.state.accounts.get(context.params.accountToken!), 'account', context.params.accountToken!);

export const accountHandlers: HandlerTable = {
  registerAccount: (context) => register(context, undefined),
  registerAccountForCustomer: (context) => register(context, visibleCustomer(context, context.params.customerId!).customerId),
  getAccount: (context) => ({ status: 200, json: accountModel(context, visibleAccount(context)) }),
  updateAccount: (context) => {
    const account = visibleAccount(context);
    account.fields = { ...account.fields, ...merchantFields(context.body, rawDetails) };
    return { status: 200, json: accountModel(context, account) };
  },
  disableAccount: (context) => {
    const account = visibleAccount(context);
    account.disabled = true;
    return { status: 200, json: accountModel(context, account) };
  },
  listAccountsForCustomer: (context) => {
    const { customerId } = visibleCustomer(context, context.params.customerId!);
    const items = newestFirst(context.core.state.accounts.values())
      .filter((a) => a.customerId === customerId)
      .map((a) => accountModel(context, a));
    return { status: 200, json: page(items, context.links, `/customers/${encodeURIComponent(customerId)}/accounts`, context.query) };
  },
};
