import { type FieldError, fieldError, StatusError } from '../api/errors.js';
import type { ResourceInfo } from '../api/resource-info.js';
import type { KubeObject } from '../api/types.js';
import { deletionFinalizersForGarbageCollection } from '../registry/delete-policy.js';
import type { Strategy } from '../registry/strategy.js';
import type { CustomResourceVersion } from './custom-resource-info.js';
import { customResourcePrinter } from './printer-columns.js';
import { applyDefaults, prune, pruneNonNullableNulls, validateInstance } from './schema/index.js';
import type { JSONSchemaProps } from '../api/json-schema-props.js';
import { evaluateRules } from './cel/evaluate.js';
import { compileSchemaRules } from './cel/rules.js';

const NOT_ALL_RULES_CHECKED = fieldError.invalid(
  '<nil>',
  'null',
  'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
);

/** Everything but metadata (and status, when /status owns it): what a custom resource's generation tracks (R1.9). */
function desiredState(obj: KubeObject, statusSubresource: boolean): string {
  const { metadata: _m, status, ...rest } = obj;
  return JSON.stringify(statusSubresource ? rest : { ...rest, status });
}

function replaceWith(target: KubeObject, source: KubeObject): void {
  for (const key of Object.keys(target)) delete target[key];
  Object.assign(target, structuredClone(source));
}

/** R1.18: custom resources accept unqualified finalizers, but each newly added one earns a warning. */
function unqualifiedFinalizerWarnings(finalizers: readonly string[], before: readonly string[]): string[] {
  return finalizers
    .filter((f) => !f.includes('/') && !before.includes(f))
    .map((f) => `metadata.finalizers: "${f}": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers`);
}

/**
 * The apiextensions order for a custom resource body (crd_handler.go): prune unknown fields, drop nulls the schema
 * does not allow, then apply defaults. Returns the pruned paths (for fieldValidation).
 */
export function normalizeCustomResource(obj: KubeObject, custom: CustomResourceVersion): string[] {
  const schema = custom.version.schema?.openAPIV3Schema;
  if (schema === undefined || custom.preserveUnknownFields) return [];
  const { pruned } = prune(obj, schema, true);
  pruneNonNullableNulls(obj, schema);
  applyDefaults(obj, schema);
  return pruned;
}

/**
 * A custom resource's store behaviour (customresource/strategy.go): generation 1 and bumped on any change outside
 * metadata, updates require a resourceVersion (R1.7), schema validation, and the /status and /scale splits.
 */
export function customResourceStrategy(info: ResourceInfo, custom: CustomResourceVersion, isTerminating: () => boolean): Strategy {
  const statusSubresource = custom.version.subresources?.status !== undefined;
  const schema: JSONSchemaProps | undefined = custom.version.schema?.openAPIV3Schema;
  const gvk = { group: info.group, version: info.version, kind: info.kind };
  // Compiled once per served CRD version; no request compiles a rule.
  const rules = custom.preserveUnknownFields ? undefined : compileSchemaRules(schema);
  const validate = (obj: KubeObject, old?: KubeObject): FieldError[] => {
    if (schema === undefined) return [];
    const errs = validateInstance(obj, schema, gvk);
    if (rules === undefined) return errs;
    // R11.116: rules run only on an object the schema accepts.
    if (errs.length > 0) return [...errs, NOT_ALL_RULES_CHECKED];
    return evaluateRules(rules, schema, obj, old);
  };
  return {
    applyDefaults: (obj) => {
      normalizeCustomResource(obj, custom);
    },
    pruneUnknownFields: (obj) => normalizeCustomResource(obj, custom),
    printer: customResourcePrinter(custom.version.additionalPrinterColumns),
    scale: custom.version.subresources?.scale,
    prepareForCreate(obj) {
      if (statusSubresource) delete obj.status;
      obj.metadata.generation = 1;
    },
    prepareForUpdate(next, old) {
      if (statusSubresource) {
        if (old.status === undefined) delete next.status;
        else next.status = old.status;
      }
      next.metadata.generation = old.metadata.generation ?? 1;
      if (desiredState(next, statusSubresource) !== desiredState(old, statusSubresource)) next.metadata.generation += 1;
    },
    prepareForStatusUpdate(next, old) {
      const status = next.status;
      replaceWith(next, old);
      if (status === undefined) delete next.status;
      else next.status = status;
    },
    prepareForFinalizeUpdate(next, old) {
      replaceWith(next, old);
    },
    validate(obj) {
      // A terminating CRD accepts no new instances.
      if (isTerminating()) {
        throw new StatusError(405, 'MethodNotAllowed', 'create not allowed while custom resource definition is terminating', { group: info.group, kind: info.plural });
      }
      return validate(obj);
    },
    validateUpdate: (next, old) => validate(next, old),
    validateStatusUpdate: (next, old) => validate(next, old),
    warningsOnCreate: (obj) => unqualifiedFinalizerWarnings(obj.metadata.finalizers ?? [], []),
    warningsOnUpdate: (next, old) => unqualifiedFinalizerWarnings(next.metadata.finalizers ?? [], old.metadata.finalizers ?? []),
    allowUnconditionalUpdate: false,
    returnDeletedObject: false,
    gcPolicy: 'DeleteDependents',
    deletionFinalizers: (opts, finalizers) => deletionFinalizersForGarbageCollection('DeleteDependents', opts, finalizers),
    gracePeriodFor: () => undefined,
    markDeleting: () => {},
    readyToRemove: () => true,
  };
}
