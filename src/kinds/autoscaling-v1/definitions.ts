import type { Definitions } from '../../openapi/schema.js';
import { int32, kindDefinition, ref, str } from '../../openapi/builders/group-builders.js';

/** autoscaling/v1 Scale: the body of the scale subresource of Deployments, ReplicaSets and StatefulSets. */

const P = 'io.k8s.api.autoscaling.v1.';

export const AUTOSCALING_V1_DEFINITIONS: Definitions = {
  [`${P}Scale`]: kindDefinition({
    group: 'autoscaling',
    version: 'v1',
    kind: 'Scale',
    description: 'Scale is a request to read or change the replica count of a resource.',
    properties: {
      spec: ref(`${P}ScaleSpec`, 'Desired scale.'),
      status: ref(`${P}ScaleStatus`, 'Current scale; read-only.'),
    },
  }),
  [`${P}ScaleSpec`]: {
    type: 'object',
    description: 'Desired scale of a resource.',
    properties: {
      replicas: int32('Desired number of instances.'),
    },
  },
  [`${P}ScaleStatus`]: {
    type: 'object',
    description: 'Current scale of a resource.',
    properties: {
      replicas: int32('Observed number of instances.'),
      selector: str('Label selector of the counted pods, in query-parameter string form.'),
    },
    required: ['replicas'],
  },
};
