import { type FieldError, fieldErrorBody } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';

/** Field errors as kube-apiserver renders each one inside an Invalid message: "<field>: <body>". */
export const rendered = (errs: readonly FieldError[]): string[] => errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);

/** A test object of a kind, with the given spec (and status, when the case needs one). */
export function objectWith(kind: string, name: string, spec: Record<string, unknown>, extra: Partial<KubeObject> = {}): KubeObject {
  return { apiVersion: 'v1', kind, metadata: { name }, spec, ...extra };
}
