// The service de-duplicates POSTs by the Idempotency-Key header; every POST must declare it so that generated
// clients can send it. Webhooks are requests the service sends to the merchant, so they are not checked.
export default function postsTakeIdempotencyKey() {
  return {
    Paths: {
      PathItem: {
        Operation: {
          enter(operation, ctx, parents) {
            if (ctx.key !== 'post') return;
            const params = [...(parents.PathItem?.parameters ?? []), ...(operation.parameters ?? [])];
            const declared = params.some((p) => {
              const { node } = ctx.resolve(p);
              return node?.in === 'header' && String(node.name).toLowerCase() === 'idempotency-key';
            });
            if (!declared) {
              ctx.report({
                message: 'POST operations must declare the Idempotency-Key header parameter.',
                location: ctx.location.key(),
              });
            }
          },
        },
      },
    },
  };
}
