import type { ResourceInfo } from '../../api/resource-info.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { deletionFinalizersForGarbageCollection } from '../delete-policy.js';
import type { Strategy } from '../strategy.js';
import type { StrategyOptions } from '../../kinds/define/strategy-options.js';

/** Makes `target` a copy of `source`, in place: subresource writers keep the stored object as their base. */
function replaceWith(target: KubeObject, source: KubeObject): void {
  for (const key of Object.keys(target)) delete target[key];
  Object.assign(target, structuredClone(source));
}

/** Fills what `target` lacks from `zero`, recursing into objects both have. */
function fillZeroValues(target: Record<string, unknown>, zero: Readonly<Record<string, unknown>>): void {
  for (const [key, value] of Object.entries(zero)) {
    const current = target[key];
    if (current === undefined || current === null) target[key] = structuredClone(value);
    else if (isObject(current) && isObject(value)) fillZeroValues(current, value);
  }
}

/** Top-level fields that make up an object's desired state: everything but identity, metadata and status. */
function desiredState(obj: KubeObject): string {
  const { apiVersion: _a, kind: _k, metadata: _m, status: _s, ...rest } = obj;
  return JSON.stringify(rest);
}

/** The store's behaviour for a type, built from a few declarative options (rest.Strategy analogue). */
export function genericStrategy(info: ResourceInfo, options: StrategyOptions = {}): Strategy {
  const hasStatus = info.subresources.some((s) => s.name === 'status');
  const specGeneration = options.specGeneration === true;
  const zero = options.statusZeroValues;
  const fillStatus = (obj: KubeObject): void => {
    if (zero === undefined) return;
    if (!isObject(obj.status)) obj.status = {};
    fillZeroValues(obj.status as Record<string, unknown>, zero);
  };
  const validateUpdate = options.validateUpdate ?? ((next: KubeObject) => (options.validate ? options.validate(next) : []));
  return {
    applyDefaults: options.defaults ?? (() => {}),
    prepareForCreate(obj, user) {
      if (hasStatus && options.initialStatus !== 'keep') {
        if (options.initialStatus === undefined) delete obj.status;
        else obj.status = options.initialStatus(obj);
      }
      fillStatus(obj);
      if (specGeneration) obj.metadata.generation = 1;
      else delete obj.metadata.generation;
      options.prepareForCreate?.(obj, user);
    },
    prepareForUpdate(next, old) {
      if (hasStatus) {
        if (old.status === undefined) delete next.status;
        else next.status = old.status;
      }
      const generation = old.metadata.generation;
      if (generation === undefined) delete next.metadata.generation;
      else next.metadata.generation = generation;
      if (specGeneration && desiredState(next) !== desiredState(old)) {
        next.metadata.generation = (generation ?? 0) + 1;
      }
      options.prepareForUpdate?.(next, old);
    },
    prepareForStatusUpdate(next, old) {
      if (options.resetForStatusUpdate !== undefined) options.resetForStatusUpdate(next, old);
      else {
        // metav1.ResetObjectMetaForStatus: a status writer changes status and nothing else.
        const status = next.status;
        replaceWith(next, old);
        if (status === undefined) delete next.status;
        else next.status = status;
      }
      fillStatus(next);
      options.prepareForStatusUpdate?.(next, old);
    },
    subresourceUpdates: options.subresourceUpdates,
    prepareForFinalizeUpdate(next, old) {
      const nextSpec = isObject(next.spec) ? next.spec : {};
      const finalizers = nextSpec.finalizers;
      replaceWith(next, old);
      const spec: Record<string, unknown> = isObject(next.spec) ? next.spec : {};
      if (finalizers === undefined) delete spec.finalizers;
      else spec.finalizers = finalizers;
      next.spec = spec;
    },
    validate: options.validate ?? (() => []),
    warningsOnCreate: options.warningsOnCreate,
    warningsOnUpdate: options.warningsOnUpdate,
    validateUpdate,
    validateStatusUpdate: options.validateStatusUpdate ?? validateUpdate,
    allowUnconditionalUpdate: options.allowUnconditionalUpdate ?? true,
    returnDeletedObject: options.returnDeletedObject ?? false,
    gcPolicy: options.gcPolicy ?? 'DeleteDependents',
    deleteRefusal: options.deleteRefusal,
    deletionFinalizers:
      options.deletionFinalizers ??
      ((opts, finalizers) => deletionFinalizersForGarbageCollection(options.gcPolicy ?? 'DeleteDependents', opts, finalizers)),
    gracePeriodFor: options.gracePeriodFor ?? (() => undefined),
    readyToRemove: options.readyToRemove ?? (() => true),
    markDeleting: options.markDeleting ?? (() => {}),
  };
}
