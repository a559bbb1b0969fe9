import { randomUUID } from 'node:crypto';
import { rules } from '../generated/rules.js';
import { ApiError, invalidField } from '../rules/api-error.js';
import { cardSchemeOf, debitCards, defaultThreeDSOutcome, threeDSOutcomeByCard } from '../rules/conventions.js';
import type { HandlerTable, SandboxCore } from '../handler-context.js';
import { businessInBody } from './facility.js';
import { singleUseTokenMachine, threeDSecureMachine } from '../rules/state-machine.js';
import type { AccountType, TokenRecord } from '../state/state.js';

type Body = Record<string, unknown>;

/** The token's state in the single-use token machine: `expired` follows from the clock and the contract's lifetime. */
export function tokenState(token: TokenRecord, now: number): 'created' | 'expired' | 'consumed' {
  if (token.consumedAt !== undefined) return 'consumed';
  return now >= token.createdAt + rules.singleUseTokens.lifetimeMs ? 'expired' : 'created';
}

const maskMiddle = (text: string, keepStart: number, keepEnd: number) =>
  text.slice(0, keepStart) + 'x'.repeat(Math.max(0, text.length - keepStart - keepEnd)) + text.slice(text.length - keepEnd);
const maskAllBut = (text: string, keepEnd: number) => text.replace(/[0-9A-Za-z]/g, (char, at: number) => (at >= text.length - keepEnd ? char : 'x'));

function cardDetails(body: Body, surcharges: Record<string, string>, acceptedSchemes: string[], now: number) {
  const number = String(body.cardNumber);
  const scheme = cardSchemeOf(number);
  if (!scheme) throw invalidField('cardNumber', number, 'is not a number of a known card scheme');
  // "A request for a payment method that the facility does not accept is rejected with 422."
  if (!acceptedSchemes.includes(scheme)) throw invalidField('cardNumber', number, `is a ${scheme} card, which the business does not accept`);
  const month = Number(body.expiryDateMonth);
  if (month < 1 || month > 12) throw invalidField('expiryDateMonth', body.expiryDateMonth, 'must be 01 to 12');
  const year = Number(body.expiryDateYear);
  const today = new Date(now);
  if (year < today.getUTCFullYear() || (year === today.getUTCFullYear() && month < today.getUTCMonth() + 1)) {
    throw invalidField('expiryDateYear', body.expiryDateYear, 'the card has expired');
  }
  const threeDS2AuthRequired = body.threeDS2 === true;
  const creditCard: Body = {
    cardNumber: maskMiddle(number, 6, 3),
    maskedCardNumber4Digits: maskMiddle(number, 6, 4),
    expiryDateMonth: String(body.expiryDateMonth),
    expiryDateYear: String(body.expiryDateYear).slice(-2),
    cardScheme: scheme,
    ...(scheme === 'VISA' || scheme === 'MASTERCARD' ? { cardType: debitCards.has(number) ? 'DEBIT' : 'CREDIT' } : {}),
    ...(typeof body.cardholderName === 'string' ? { cardholderName: body.cardholderName } : {}),
    surchargePercentage: surcharges[scheme] ?? '0',
    threeDS2AuthRequired,
  };
  return { details: { creditCard }, scheme, threeDS2AuthRequired, threeDSOutcome: threeDSOutcomeByCard[number] ?? defaultThreeDSOutcome };
}

function accountDetails(accountType: AccountType, body: Body): Body {
  switch (accountType) {
    case 'DIRECT_DEBIT':
      return { bankAccount: { accountName: body.accountName, bsb: maskAllBut(String(body.bsb), 3), accountNumber: maskAllBut(String(body.accountNumber), 3) } };
    case 'DIRECT_DEBIT_NZ':
      return {
        nzBankAccount: {
          nzAccountName: body.nzAccountName,
          nzBankCode: body.nzBankCode,
          nzBranchCode: body.nzBranchCode,
          nzAccountNumber: maskAllBut(String(body.nzAccountNumber), 3),
          nzAccountSuffix: body.nzAccountSuffix,
        },
      };
    default:
      return {}; // wallet tokens carry only the links, the token and the account type
  }
}

/** Unused tokens (neither consumed nor expired), of the facility and of one address. */
function unusedTokens(core: SandboxCore, ip: string): { facility: number; address: number } {
  const now = core.clock.now();
  let facility = 0;
  let address = 0;
  for (const token of core.state.tokens.values()) {
    if (tokenState(token, now) !== 'created') continue;
    facility += 1;
    if (token.ip === ip) address += 1;
  }
  return { facility, address };
}

/** The model the token endpoint answers with. */
export const tokenModel = (token: TokenRecord) => ({ links: [], singleUseTokenId: token.id, accountType: token.accountType, ...token.details });

/**
 * A token named by a payment or an account registration: it must be `created` (not expired, not consumed) and, when
 * it needs 3D Secure, carry an outcome that allows it. Returns the token and the step that consumes it, to be taken
 * once the rest of the request has been accepted.
 */
export function tokenForUse(core: SandboxCore, tokenId: unknown): { token: TokenRecord; consume: () => void } {
  const token = typeof tokenId === 'string' ? core.state.tokens.get(tokenId) : undefined;
  if (!token) throw invalidField('singleUseTokenId', tokenId, 'is not a token of the facility');
  const now = core.clock.now();
  const fired = singleUseTokenMachine.fire(tokenState(token, now), ['consume', 'use-refused']);
  if (fired.transition.id === 'use-refused') {
    throw new ApiError(fired.transition.response!, `The single-use token is ${tokenState(token, now)}: ${fired.transition.condition}.`, {
      errors: [{ fieldName: 'singleUseTokenId', fieldValue: token.id, messages: [`the token is ${tokenState(token, now)}`] }],
    });
  }
  if (token.threeDS2AuthRequired) {
    const gate = threeDSecureMachine.fire(token.transStatus ?? null, ['proceed', 'proceed-refused']);
    if (gate.transition.id === 'proceed-refused') {
      const outcome = token.transStatus ? `its 3D Secure outcome is ${token.transStatus}` : 'it has not been through 3D Secure authentication';
      throw new ApiError(gate.transition.response!, `The token needs 3D Secure authentication and ${outcome}.`, {
        errors: [{ fieldName: 'singleUseTokenId', fieldValue: token.id, messages: [outcome] }],
      });
    }
  }
  return { token, consume: () => (token.consumedAt = core.clock.now()) };
}

const transitionFor3DS = (outcome: string) => (outcome === 'C' ? 'challenge' : ['A', 'Y'].includes(outcome) ? 'frictionless' : 'failed');

/** The payer's answer to a challenge (the control interface plays the cardholder). */
export function completeChallenge(core: SandboxCore, tokenId: string, transStatus: string): TokenRecord {
  const token = core.state.tokens.get(tokenId);
  if (!token) throw new ApiError(404, `No token ${tokenId}.`);
  if (token.transStatus !== 'C') throw new ApiError(422, `The token's 3D Secure outcome is ${token.transStatus ?? 'not set'}, not a challenge (C).`);
  const allowed = threeDSecureMachine.transition('challenge-completed').to ?? [];
  if (!allowed.includes(transStatus)) throw new ApiError(422, `A challenge ends in one of ${allowed.join(', ')}.`);
  token.transStatus = threeDSecureMachine.fire('C', ['challenge-completed'], transStatus).to ?? undefined;
  return token;
}

export const tokenHandlers: HandlerTable = {
  createSingleUseToken: (context) => {
    const { core } = context;
    const body = context.body as Body;
    const business = businessInBody(context, body.supplierBusinessCode);
    const unused = unusedTokens(core, context.ip);
    const quota = rules.singleUseTokens.unusedQuota;
    const fired = singleUseTokenMachine.fire(null, unused.facility >= quota || unused.address >= quota ? ['create-refused'] : ['create']);
    if (fired.transition.id === 'create-refused') {
      throw new ApiError(fired.transition.response!, `The quota of ${quota} unused single-use tokens is used up (facility ${unused.facility}, this address ${unused.address}).`);
    }
    const accountType = body.accountType as AccountType;
    const now = core.clock.now();
    const card = accountType === 'CREDIT_CARD' ? cardDetails(body, business.surcharges, business.acceptedSchemes, now) : undefined;
    const token: TokenRecord = {
      id: randomUUID(),
      createdAt: now,
      ip: context.ip,
      accountType,
      supplierBusinessCode: business.supplierBusinessCode,
      details: card?.details ?? accountDetails(accountType, body),
      threeDS2AuthRequired: card?.threeDS2AuthRequired ?? false,
      ...(card ? { cardScheme: card.scheme, threeDSOutcome: card.threeDSOutcome } : {}),
    };
    core.state.tokens.set(token.id, token);
    return { status: fired.transition.response!, json: tokenModel(token) };
  },

  authenticateSingleUseTokenThreeDS2: (context) => {
    const { core } = context;
    const token = core.state.tokens.get(context.params.singleUseTokenId!);
    if (!token) throw new ApiError(404, 'The single-use token is invalid or expired.');
    const fired = singleUseTokenMachine.fire(tokenState(token, core.clock.now()), ['authenticate', 'authenticate-refused']);
    if (fired.transition.id === 'authenticate-refused') throw new ApiError(fired.transition.response!, 'The single-use token is invalid or expired.');
    if (token.accountType !== 'CREDIT_CARD') throw invalidField('singleUseTokenId', token.id, 'is not a card token');
    // A repeated call gives the current outcome (after a challenge, the cardholder's answer).
    if (token.transStatus === undefined) {
      const outcome = token.threeDSOutcome ?? defaultThreeDSOutcome;
      token.transStatus = threeDSecureMachine.fire(null, [transitionFor3DS(outcome)], outcome).to ?? undefined;
    }
    return { status: fired.transition.response!, json: { transStatus: token.transStatus } };
  },
};
