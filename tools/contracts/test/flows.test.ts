import { describe, expect, it } from 'vitest';
import { readFlows, FlowError } from '../src/flows.js';
import { bundleOpenApi } from '../src/openapi/bundle.js';
import { paymentsContract } from '../src/registry.js';

/** A small contract with two operations (one with its own security) and one webhook. */
const contract = () => ({
  security: [{ secretKey: [] }],
  paths: {
    '/things': {
      post: { operationId: 'createThing', security: [{ publishableKey: [] }], responses: { '201': {} } },
      get: { operationId: 'listThings', responses: { '200': {} } },
    },
  },
  webhooks: { 'thing.done': {} },
});

const flow = () => ({
  title: 'Thing flow',
  description: 'Making a thing.',
  actors: { app: 'App', service: 'Service' } as Record<string, string>,
  steps: [
    { from: 'app', to: 'service', operation: 'createThing', description: 'make it' } as Record<string, unknown>,
    { from: 'service', to: 'app', event: 'thing.done', description: 'done', condition: 'it worked' } as Record<string, unknown>,
    { from: 'app', to: 'service', action: 'waits', description: 'a while' } as Record<string, unknown>,
  ],
});

type Edit = (f: ReturnType<typeof flow>) => void;
const read = (edit: Edit = () => {}) => {
  const f = flow();
  edit(f);
  return readFlows({ ...contract(), 'x-paykit-flows': { thing: f } }, 'test');
};

describe('readFlows', () => {
  it('reads each step with its operation (method, path, security), event or action', () => {
    const { thing } = read();
    expect(thing?.actors).toEqual({ app: 'App', service: 'Service' });
    expect(thing?.steps).toEqual([
      {
        from: 'app',
        to: 'service',
        kind: 'operation',
        operation: { operationId: 'createThing', method: 'POST', path: '/things', security: ['publishableKey'] },
        description: 'make it',
      },
      { from: 'service', to: 'app', kind: 'event', event: 'thing.done', description: 'done', condition: 'it worked' },
      { from: 'app', to: 'service', kind: 'action', action: 'waits', description: 'a while' },
    ]);
  });

  it('gives an operation without its own security the contract default', () => {
    const { thing } = read((f) => (f.steps[0]!.operation = 'listThings'));
    expect(thing?.steps[0]?.operation?.security).toEqual(['secretKey']);
  });

  it('reads a contract without flows as none', () => {
    expect(readFlows(contract(), 'test')).toEqual({});
  });

  it.each<{ problem: string; edit: Edit; message: string }>([
    { problem: 'an unknown operationId', edit: (f) => (f.steps[0]!.operation = 'deleteThing'), message: 'operation names "deleteThing", which is no operation of the contract' },
    { problem: 'an unknown webhook event', edit: (f) => (f.steps[1]!.event = 'thing.lost'), message: 'event names "thing.lost", which is no webhook of the contract' },
    { problem: 'an unknown actor', edit: (f) => (f.steps[0]!.to = 'bank'), message: 'steps[0].to names "bank", which is not an actor of the flow' },
    { problem: 'a step to itself', edit: (f) => (f.steps[0]!.to = 'app'), message: 'goes from app to itself' },
    { problem: 'two kinds in one step', edit: (f) => (f.steps[0]!.event = 'thing.done'), message: 'needs exactly one of operation, event or action' },
    { problem: 'no kind', edit: (f) => delete f.steps[2]!.action, message: 'needs exactly one of operation, event or action' },
    { problem: 'a missing description', edit: (f) => delete f.steps[0]!.description, message: 'steps[0].description is missing' },
    { problem: 'an unknown field', edit: (f) => (f.steps[0]!.colour = 'red'), message: 'has fields no reader knows: colour' },
    { problem: 'an actor no step involves', edit: (f) => (f.actors.bank = 'Bank'), message: 'no step involves bank' },
    { problem: 'no steps', edit: (f) => (f.steps.length = 0), message: 'steps must list at least one step' },
  ])('refuses $problem', ({ edit, message }) => {
    expect(() => read(edit)).toThrow(FlowError);
    expect(() => read(edit)).toThrow(message);
  });
});

describe('the payments contract', async () => {
  const payments = await bundleOpenApi(paymentsContract.root);

  it('has the card payment, alias and guide flows, with the key each request takes', () => {
    const flows = readFlows(payments, 'payments');
    expect(Object.keys(flows)).toEqual(['cardPayment', 'aliasPayment', 'refundAndVoid', 'preauthCapture', 'storedAccountRecurring', 'paymentFile', 'mandateAgreement']);
    const token = flows.cardPayment!.steps.find((s) => s.operation?.operationId === 'createSingleUseToken');
    expect(token?.operation).toMatchObject({ method: 'POST', path: '/single-use-tokens', security: ['publishableKey'] });
    expect(flows.aliasPayment!.steps.filter((s) => s.kind === 'event').map((s) => s.event)).toEqual(['alias.registered', 'alias.payment.received']);
  });
});
