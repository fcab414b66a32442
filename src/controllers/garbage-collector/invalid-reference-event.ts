import type { InvalidReferenceRecorder } from './graph-builder.js';
import type { GcOperations } from './operations.js';

/**
 * R4.18: the Warning event for a reference whose owner lives in another namespace (or is namespaced while the
 * dependent is cluster-scoped). Recording is fire-and-forget: the builder's loop never waits on the API.
 */
export function ownerRefInvalidNamespaceRecorder(
  ops: GcOperations,
  now: () => Date,
  log: (message: string) => void,
): InvalidReferenceRecorder {
  return (dependent, ref) => {
    const namespace = dependent.identity.namespace;
    const owner = `[${ref.apiVersion}/${ref.kind}, namespace: ${namespace}, name: ${ref.name}, uid: ${ref.uid}]`;
    ops
      .recordEvent(
        dependent.identity,
        'Warning',
        'OwnerRefInvalidNamespace',
        `ownerRef ${owner} does not exist in namespace "${namespace}"`,
        now(),
      )
      .catch((err: unknown) => log(`garbage collector: recording an event failed: ${String(err)}`));
  };
}
