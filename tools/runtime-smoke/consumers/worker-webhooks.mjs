// A merchant's Worker that receives webhook notifications: the webhook helpers need the nodejs_compat flag.
import { webhookStep } from './webhook.mjs';

export default {
  async fetch() {
    return Response.json(webhookStep());
  },
};
