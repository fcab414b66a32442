import { isObject, type KubeObject } from '../../api/types.js';
import { objectKeyOf } from '../../cache/object-key.js';
import type { ResourceRef } from '../../client/interface.js';
import { CONTROLLER_REVISION_HASH_LABEL } from '../history/controller-history.js';
import { slowStartBatch } from '../replicaset/controller.js';
import type { ControllerExpectations } from '../workloads/expectations.js';
import type { PodControl } from '../workloads/pod-control.js';
import { podFromTemplate } from '../workloads/pods.js';
import { POD_TEMPLATE_GENERATION_LABEL, pinnedToNode, specOf, templateGeneration, withDaemonTolerations } from './daemon-pods.js';

export const PODS: ResourceRef = { group: '', version: 'v1', resource: 'pods' };
/** BurstReplicas: the most pods created or deleted for one DaemonSet in one sync (R12.27). */
const BURST = 500;

/** CreatePodTemplate: the set's template with the daemon tolerations, the generation label and the revision hash. */
export function daemonPodTemplate(ds: KubeObject, hash: string): Record<string, unknown> {
  const template = isObject(specOf(ds).template) ? (specOf(ds).template as Record<string, unknown>) : {};
  const meta = isObject(template.metadata) ? template.metadata : {};
  const labels: Record<string, string> = { ...(isObject(meta.labels) ? (meta.labels as Record<string, string>) : {}) };
  const generation = templateGeneration(ds);
  if (generation !== undefined) labels[POD_TEMPLATE_GENERATION_LABEL] = generation;
  if (hash !== '') labels[CONTROLLER_REVISION_HASH_LABEL] = hash;
  return { metadata: { ...meta, labels }, spec: withDaemonTolerations(isObject(template.spec) ? template.spec : {}) };
}

export interface SyncNodesInput {
  readonly podControl: PodControl;
  readonly expectations: ControllerExpectations;
  readonly key: string;
  readonly ds: KubeObject;
  readonly hash: string;
  readonly createOn: readonly string[];
  readonly remove: readonly string[];
}

/**
 * syncNodes: deletes the named pods and creates one pod per node (slow-start batches, at most 500 of each), each
 * pinned to its node by node affinity for the scheduler to bind, under expectations so nothing happens twice.
 */
export async function syncNodes(input: SyncNodesInput): Promise<void> {
  const { podControl, expectations, key, ds } = input;
  const namespace = ds.metadata.namespace;
  const createOn = input.createOn.slice(0, BURST);
  const remove = input.remove.slice(0, BURST);
  expectations.expect(
    key,
    createOn.length,
    remove.map((name) => objectKeyOf(namespace, name)),
  );
  const template = daemonPodTemplate(ds, input.hash);
  let next = 0;
  const created = await slowStartBatch(createOn.length, async () => {
    const node = createOn[next++] ?? '';
    const pod = podFromTemplate(template, ds);
    pod.spec = pinnedToNode(isObject(pod.spec) ? pod.spec : {}, node);
    await podControl.create(ds, pod, () => expectations.creationObserved(key));
  });
  // Pods never attempted after a failed batch will never be observed.
  for (let skipped = createOn.length - next; skipped > 0; skipped--) expectations.creationObserved(key);
  const deleted = await Promise.allSettled(
    remove.map((name) => podControl.delete(ds, namespace, name, () => expectations.deletionObserved(key, objectKeyOf(namespace, name)))),
  );
  const failed = deleted.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (created.error !== undefined) throw created.error;
  if (failed !== undefined) throw failed.reason;
}
