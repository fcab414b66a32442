import { CUSTOM_RESOURCE_CLEANUP_FINALIZER, type CustomResourceDefinition } from '../api/crd-types.js';
import { validateCustomResourceDefinition, validateCustomResourceDefinitionUpdate } from './crd-validation.js';
import type { ResourceInfo } from '../api/resource-info.js';
import { isObject, type KubeObject } from '../api/types.js';
import { deletionFinalizersForGarbageCollection } from '../registry/delete-policy.js';
import type { Strategy } from '../registry/strategy.js';
import { genericStrategy } from '../registry/resources/generic.js';
import { strategyFor } from '../registry/resources/index.js';

/** SetDefaults_CustomResourceDefinition: singular, listKind, the conversion strategy and a webhook service's port. */
function defaultCrd(obj: KubeObject): void {
  const crd = obj as CustomResourceDefinition;
  if (!isObject(crd.spec)) return;
  const names = crd.spec.names;
  if (isObject(names) && typeof names.kind === 'string') {
    names.singular ??= names.kind.toLowerCase();
    names.listKind ??= `${names.kind}List`;
  }
  crd.spec.conversion ??= { strategy: 'None' };
  const conversion = crd.spec.conversion;
  if (!isObject(conversion)) return;
  if (conversion.strategy === undefined || conversion.strategy === '') conversion.strategy = 'None';
  const service = conversion.webhook?.clientConfig?.service;
  if (isObject(service)) service.port ??= 443;
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

/**
 * The built-in catalog plus the CRD strategy, whose validation is apiextensions' own: the registry knows nothing of
 * CRD schemas, so the API server hands it this at construction.
 */
export function strategyWithCustomResourceDefinitions(info: ResourceInfo): Strategy {
  return info.group === 'apiextensions.k8s.io' && info.plural === 'customresourcedefinitions' ? cached(info) : strategyFor(info);
}

const crdStrategies = new WeakMap<ResourceInfo, Strategy>();

function cached(info: ResourceInfo): Strategy {
  let strategy = crdStrategies.get(info);
  if (strategy === undefined) {
    strategy = customResourceDefinitionStrategy(info);
    crdStrategies.set(info, strategy);
  }
  return strategy;
}
