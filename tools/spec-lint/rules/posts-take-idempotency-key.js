// The service de-duplicates POSTs by its idempotency key, a header the contract marks `x-paykit-idempotency-key: true`
// (OpenAPI has no keyword for it; tools/contracts finds the key by the mark and refuses two headers or two schemas).
// Every POST must take it, so that generated clients can send it. The rule knows the mark, never the header's name:
// that is written once, in the spec. Webhooks are requests the service sends to the merchant, so they are not checked.
const mark = 'x-paykit-idempotency-key';

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
              return node?.in === 'header' && node[mark] === true;
            });
            if (!declared) {
              ctx.report({
                message: `POST operations must take the idempotency key: a header parameter marked \`${mark}: true\`.`,
                location: ctx.location.key(),
              });
            }
          },
        },
      },
    },
  };
}
