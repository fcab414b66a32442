import { CUSTOM_RESOURCE_CLEANUP_FINALIZER, type CustomResourceDefinition } from '../../apiextensions/crd-types.js';
import { validateCustomResourceDefinition, validateCustomResourceDefinitionUpdate } from '../../apiextensions/crd-validation.js';
import { unsupportedCelRules } from '../../apiextensions/schema/index.js';
import type { ResourceInfo } from '../../api/resource-info.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { deletionFinalizersForGarbageCollection } from '../delete-policy.js';
import type { Strategy } from '../strategy.js';
import { genericStrategy } from './generic.js';

/** SetDefaults_CustomResourceDefinition: singular, listKind and the conversion strategy. */
function defaultCrd(obj: KubeObject): void {
  const crd = obj as CustomResourceDefinition;
  if (!isObject(crd.spec)) return;
  const names = crd.spec.names;
  if (isObject(names) && typeof names.kind === 'string') {
    names.singular ??= names.kind.toLowerCase();
    names.listKind ??= `${names.kind}List`;
  }
  crd.spec.conversion ??= { strategy: 'None' };
}

/** `x-kubernetes-validations` (CEL) rules are accepted but not evaluated; the client is told where they are. */
function celWarnings(obj: KubeObject): string[] {
  const crd = obj as CustomResourceDefinition;
  const versions = Array.isArray(crd.spec?.versions) ? crd.spec.versions : [];
  return versions.flatMap((v, i) => {
    const rules = unsupportedCelRules(v.schema?.openAPIV3Schema, `spec.versions[${i}].schema.openAPIV3Schema`);
    return rules.length === 0
      ? []
      : [`${rules.join(', ')}: x-kubernetes-validations (CEL) rules are not evaluated by Cascade; objects are validated without them`];
  });
}

/**
 * The CRD registry (apiextensions customresourcedefinition strategy and REST): validation, storedVersions, and
 * the cleanup finalizer added by the first DELETE so instances are removed before the definition goes.
 */
export function customResourceDefinitionStrategy(info: ResourceInfo): Strategy {
  return genericStrategy(info, {
    specGeneration: true,
    defaults: defaultCrd,
    initialStatus: (obj) => {
      const crd = obj as CustomResourceDefinition;
      const storage = (Array.isArray(crd.spec?.versions) ? crd.spec.versions : []).find((v) => v.storage)?.name;
      return { acceptedNames: { plural: '', kind: '' }, storedVersions: storage === undefined ? [] : [storage] };
    },
    validate: validateCustomResourceDefinition,
    warningsOnCreate: celWarnings,
    warningsOnUpdate: celWarnings,
    validateUpdate: validateCustomResourceDefinitionUpdate,
    deletionFinalizers: (opts, finalizers, obj) => {
      const gc = deletionFinalizersForGarbageCollection('DeleteDependents', opts, finalizers);
      if (obj.metadata.deletionTimestamp !== undefined || gc.finalizers.includes(CUSTOM_RESOURCE_CLEANUP_FINALIZER)) return gc;
      return { changed: true, finalizers: [...gc.finalizers, CUSTOM_RESOURCE_CLEANUP_FINALIZER] };
    },
    markDeleting: (obj) => {
      const crd = obj as CustomResourceDefinition;
      const status = crd.status ?? {};
      if (status.conditions?.some((c) => c.type === 'Terminating' && c.status === 'True')) return;
      const conditions = (status.conditions ?? []).filter((c) => c.type !== 'Terminating');
      conditions.push({
        type: 'Terminating',
        status: 'True',
        reason: 'InstanceDeletionInProgress',
        message: 'CustomResource deletion is in progress',
        lastTransitionTime: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      });
      crd.status = { ...status, conditions };
    },
  });
}
