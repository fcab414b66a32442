import { objects } from '../../api/types.js';
import type { SharedInformer } from '../../cache/shared-informer.js';

/**
 * The webhooks of one configuration kind as admission sees them, read from an informer (never a LIST per request,
 * R11.81): ordered by configuration name (byte-wise), then by position in `webhooks[]` (R11.50). The flattened list
 * is rebuilt only after the cache changed.
 */

export type WebhookEntry = Readonly<Record<string, unknown>> & { readonly name: string; readonly configuration: string };

export interface WebhookSource {
  webhooks(): readonly WebhookEntry[];
}

const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function informerWebhookSource(informer: SharedInformer): WebhookSource {
  let cached: readonly WebhookEntry[] | undefined;
  const invalidate = (): void => {
    cached = undefined;
  };
  informer.addEventHandler({ onAdd: invalidate, onUpdate: invalidate, onDelete: invalidate });
  return {
    webhooks: () => {
      if (cached === undefined) {
        const configurations = informer.store.list().sort((a, b) => byteOrder(a.metadata.name ?? '', b.metadata.name ?? ''));
        cached = configurations.flatMap((config) =>
          objects(config.webhooks).map((hook) => ({
            ...hook,
            name: typeof hook.name === 'string' ? hook.name : '',
            configuration: config.metadata.name ?? '',
          })),
        );
      }
      return cached;
    },
  };
}

/** A fixed list, for tests and tools. */
export function staticWebhookSource(webhooks: readonly WebhookEntry[]): WebhookSource {
  return { webhooks: () => webhooks };
}
