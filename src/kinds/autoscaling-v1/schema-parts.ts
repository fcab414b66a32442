

/** Schema pieces several autoscaling-v1 kinds share. */

export const P = 'io.k8s.api.autoscaling.v1.';
