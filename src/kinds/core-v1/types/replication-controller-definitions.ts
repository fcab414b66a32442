import type { Definitions } from '../../../openapi/schema.js';
import { ATOMIC_STRUCT, CORE, core, coreArray, coreKind, int32, int64, mergeByKey, object, str, stringMap, time } from '../../../openapi/builders/shorthand.js';

/** core/v1 ReplicationController: the predecessor of ReplicaSet, selecting its pods by equality on labels. */

const REPLICATION_CONTROLLER = coreKind({
  kind: 'ReplicationController',
  description: 'Keeps a given number of copies of a pod running.',
  properties: {
    spec: core('ReplicationControllerSpec', 'Desired behaviour of the replication controller.'),
    status: core('ReplicationControllerStatus', 'Most recently observed status of the replication controller; may lag behind. Read-only.'),
  },
  listDescription: 'List of ReplicationController objects.',
  itemsDescription: 'The replication controllers.',
});

export const CORE_V1_REPLICATION_CONTROLLER_DEFINITIONS: Definitions = {
  ...REPLICATION_CONTROLLER,
  [`${CORE}ReplicationControllerSpec`]: object('Desired behaviour of a replication controller.', {
    minReadySeconds: int32('Seconds a new pod must be ready, without crashing, before it counts as available. Defaults to 0.'),
    replicas: int32('Desired number of replicas. Defaults to 1.'),
    selector: stringMap(
      'Labels the counted pods must carry; defaults to the template’s labels. Must match the template’s labels when both are set.',
      ATOMIC_STRUCT,
    ),
    template: core('PodTemplateSpec', 'Pod template used when too few replicas exist.'),
  }),
  [`${CORE}ReplicationControllerStatus`]: object(
    'Most recently observed status of a replication controller.',
    {
      availableReplicas: int32('Replicas that have been ready for at least minReadySeconds.'),
      conditions: coreArray(
        'ReplicationControllerCondition',
        'Latest observations of the replication controller’s state.',
        mergeByKey('type'),
      ),
      fullyLabeledReplicas: int32('Pods carrying all the labels of the pod template.'),
      observedGeneration: int64('Generation of the most recently observed replication controller.'),
      readyReplicas: int32('Targeted pods with a Ready condition.'),
      replicas: int32('Most recently observed number of replicas.'),
    },
    { required: ['replicas'] },
  ),
  [`${CORE}ReplicationControllerCondition`]: object(
    'State of a replication controller at one point in time.',
    {
      lastTransitionTime: time('Last time the condition changed from one status to another.'),
      message: str('Human-readable details about the transition.'),
      reason: str('Reason for the last transition.'),
      status: str('Status of the condition: True, False or Unknown.'),
      type: str('Type of the condition, e.g. ReplicaFailure.'),
    },
    { required: ['type', 'status'] },
  ),
};
