import { ref, str } from '../../openapi/builders/group-builders.js';
import type { Schema } from '../../openapi/schema.js';

/** Definition prefix of flowcontrol.apiserver.k8s.io/v1. */
export const P = 'io.k8s.api.flowcontrol.v1.';
export const GROUP = 'flowcontrol.apiserver.k8s.io';

/** The annotation telling the apiserver it may overwrite a bootstrap object's spec with the built-in one. */
export const AUTO_UPDATE_ANNOTATION = 'apf.kubernetes.io/autoupdate-spec';

/** FlowSchemaCondition and PriorityLevelConfigurationCondition: every field optional, unlike most conditions. */
export function flowcontrolCondition(description: string): Schema {
  return {
    type: 'object',
    description,
    properties: {
      lastTransitionTime: ref('io.k8s.apimachinery.pkg.apis.meta.v1.Time', 'When the condition last changed status.'),
      message: str('Human-readable details about the last transition.'),
      reason: str('Machine-readable reason for the last transition.'),
      status: str('True, False or Unknown.'),
      type: str('Type of the condition.'),
    },
  };
}

/** Go's apiequality.Semantic view of decoded JSON: false, "" and empty lists are the zero values omitempty drops. */
export function semanticForm(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(semanticForm);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (entry === false || entry === '' || entry === null || (Array.isArray(entry) && entry.length === 0)) continue;
    out[key] = semanticForm(entry);
  }
  return out;
}
