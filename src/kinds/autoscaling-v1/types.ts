import { int32, kindDefinition, ref, str } from '../../openapi/builders/group-builders.js';
import type { Definitions } from '../../openapi/schema.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { TypeSet } from '../define/kind-definition.js';

const P = 'io.k8s.api.autoscaling.v1.';

const DEFINITIONS: Definitions = {
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

const FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.autoscaling.v1.Scale': { tags: { metadata: 1, spec: 2, status: 3 } },
  'io.k8s.api.autoscaling.v1.ScaleSpec': { tags: { replicas: 1 } },
  'io.k8s.api.autoscaling.v1.ScaleStatus': { tags: { replicas: 1, selector: 2 } },
};

/** autoscaling/v1 Scale: what the scale subresource of Deployments, ReplicaSets, StatefulSets and ReplicationControllers answers. */
export const AUTOSCALING_V1_TYPES: TypeSet = { definitions: DEFINITIONS, fieldNumbers: FIELD_NUMBERS };
