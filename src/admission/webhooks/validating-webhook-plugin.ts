import type { ResourceInfo } from '../../api/resource-info.js';
import type { ValidatingAdmissionPlugin } from '../../registry/admission/plugin.js';
import { callWebhook, checkDryRun, judge, shouldCall, type WebhookPluginOptions } from './webhook-call.js';
import type { WebhookEntry, WebhookSource } from './webhook-configurations.js';
import { isExemptFromWebhooks } from './rule-matching.js';

/**
 * ValidatingAdmissionWebhook (R11.55, R11.56): every interested webhook is found first, in configuration order, then
 * all are called at once; the request fails if any denies or fails under Fail. Which error is reported when several
 * fail is the first in configuration order (Kubernetes reports whichever it collects first, quirk Q2).
 */
export function validatingAdmissionWebhook(source: WebhookSource, options: WebhookPluginOptions): ValidatingAdmissionPlugin {
  return {
    name: 'ValidatingAdmissionWebhook',
    handles: () => true,
    validate: async (attributes) => {
      // The server's own writes are never refused (registry/admission/attributes.ts), and R11.34 exempts these kinds.
      if (attributes.user === undefined || isExemptFromWebhooks(attributes.resource)) return;
      const hooks = source.webhooks();
      if (hooks.length === 0) return;
      const calls: { hook: WebhookEntry; invocation: ResourceInfo }[] = [];
      for (const hook of hooks) {
        const invocation = await shouldCall(hook, attributes, options.match);
        if (invocation === undefined) continue;
        checkDryRun(hook, attributes);
        calls.push({ hook, invocation });
      }
      const results = await Promise.all(
        calls.map(({ hook, invocation }) => callWebhook(hook, 'validating', attributes, invocation, options.client)),
      );
      results.forEach((result, i) => {
        judge((calls[i] as { hook: WebhookEntry }).hook, result, attributes);
      });
    },
  };
}
