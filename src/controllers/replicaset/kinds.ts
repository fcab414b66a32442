import { isObject, type KubeObject } from '../../api/types.js';
import type { ResourceRef } from '../../client/interface.js';
import { NOTHING_SELECTOR, type LabelSelector } from '../../selectors/label-selector.js';
import { asLabelSelectorObject, labelSelectorAsSelector } from '../../selectors/label-selector-object.js';

/**
 * What differs between ReplicaSets and ReplicationControllers, which Kubernetes runs through the same controller
 * (the replication controller wraps RCs as ReplicaSets): where they live, how their selector reads, who reports.
 */
export interface ReplicaKind {
  readonly resource: ResourceRef;
  readonly apiVersion: string;
  readonly kind: string;
  /** The events' source component. */
  readonly component: string;
  selector(owner: KubeObject): LabelSelector;
}

function specOf(owner: KubeObject): Record<string, unknown> {
  return isObject(owner.spec) ? owner.spec : {};
}

/** A stored selector that no longer parses selects nothing, as upstream's sync then gives up on the owner. */
function safeSelector(build: () => LabelSelector): LabelSelector {
  try {
    return build();
  } catch {
    return NOTHING_SELECTOR;
  }
}

export const REPLICA_SET: ReplicaKind = {
  resource: { group: 'apps', version: 'v1', resource: 'replicasets' },
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  component: 'replicaset-controller',
  selector: (owner) => safeSelector(() => labelSelectorAsSelector(asLabelSelectorObject(specOf(owner).selector))),
};

export const REPLICATION_CONTROLLER: ReplicaKind = {
  resource: { group: '', version: 'v1', resource: 'replicationcontrollers' },
  apiVersion: 'v1',
  kind: 'ReplicationController',
  component: 'replication-controller',
  // An RC's selector is an equality map; an empty one selects nothing (defaulting fills it from the template).
  selector: (owner) => {
    const selector = specOf(owner).selector;
    if (!isObject(selector) || Object.keys(selector).length === 0) return NOTHING_SELECTOR;
    return safeSelector(() => labelSelectorAsSelector({ matchLabels: selector as Record<string, string> }));
  },
};
