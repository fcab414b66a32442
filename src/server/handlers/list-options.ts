import type { StoreListOptions } from '../../registry/store.js';
import type { ResourceRequest } from '../api-context.js';

export function listOptions(r: ResourceRequest): StoreListOptions {
  const q = r.query;
  return {
    labelSelector: q.string('labelSelector'),
    fieldSelector: q.string('fieldSelector'),
    limit: q.int('limit'),
    continue: q.string('continue'),
    resourceVersion: q.string('resourceVersion'),
    resourceVersionMatch: q.string('resourceVersionMatch'),
  };
}
