import type { FieldNumberTable } from '../define/field-numbers.js';

export const AUTOSCALING_V1_FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.autoscaling.v1.Scale': { tags: { metadata: 1, spec: 2, status: 3 } },
  'io.k8s.api.autoscaling.v1.ScaleSpec': { tags: { replicas: 1 } },
  'io.k8s.api.autoscaling.v1.ScaleStatus': { tags: { replicas: 1, selector: 2 } },
};
