import { createInProcessClient } from '../../../../server/in-process-client.js';
import type { ApiClient } from '../../../../client/interface.js';
import { BUILTIN_DEFINITIONS } from '../../../../kinds/definitions.js';
import { BUILTIN_RESOURCES } from '../../../../kinds/index.js';
import { Registry } from '../../../../registry/registry.js';
import { createMemoryBackend } from '../../../../storage/memory/backend.js';

/** A client over a fresh in-memory registry serving the built-in resources. */
export function createTestClient(): ApiClient {
  return createInProcessClient(new Registry({ backend: createMemoryBackend(), resources: BUILTIN_RESOURCES }), BUILTIN_DEFINITIONS);
}

/** The same client, recording every write it passes on as "<verb> <resource> <name>". */
export function recordingWrites(client: ApiClient): { client: ApiClient; writes: string[] } {
  const writes: string[] = [];
  const record = (verb: string, resource: string, name: string | undefined): void => {
    writes.push(`${verb} ${resource} ${name}`);
  };
  return {
    writes,
    client: {
      ...client,
      create(ref, ns, obj) {
        record('create', ref.resource, obj.metadata.name);
        return client.create(ref, ns, obj);
      },
      update(ref, ns, obj, sub) {
        record('update', ref.resource, obj.metadata.name);
        return client.update(ref, ns, obj, sub);
      },
      patch(ref, ns, name, type, patch) {
        record('patch', ref.resource, name);
        return client.patch(ref, ns, name, type, patch);
      },
      apply(ref, ns, config, opts) {
        record('apply', ref.resource, config.metadata.name);
        return client.apply(ref, ns, config, opts);
      },
      delete(ref, ns, name, opts) {
        record('delete', ref.resource, name);
        return client.delete(ref, ns, name, opts);
      },
    },
  };
}
