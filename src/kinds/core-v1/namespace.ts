import type { DeleteOptions } from '../../api/delete-options.js';
import { type FieldError, fieldError } from '../../api/errors.js';
import { FINALIZER_FOREGROUND, FINALIZER_KUBERNETES, FINALIZER_ORPHAN, STANDARD_FINALIZERS } from '../../api/finalizers.js';
import { VERBS_NO_COLLECTION_DELETE } from '../../api/resource-info.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { CORE, core, coreArray, coreKind, mergeByKey, object, str, stringArray, time } from '../../openapi/builders/shorthand.js';
import type { Definitions } from '../../openapi/schema.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, text } from '../../tables/object-fields.js';
import { column } from '../../tables/printer.js';
import { isQualifiedName } from '../../validation/names.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import { fieldAt, notSupported, textAttr } from '../define/field-selectors.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, STATUS } from '../define/resource.js';
import { specOf } from './types/defaulting.js';

const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

function specFinalizers(obj: KubeObject): string[] {
  const finalizers = isObject(obj.spec) ? obj.spec.finalizers : undefined;
  return Array.isArray(finalizers) ? finalizers.filter((f): f is string => typeof f === 'string') : [];
}

/**
 * R5.2: spec finalizers are qualified names, and unqualified ones must be standard. Kubernetes reports them at
 * `spec.finalizers` on create and at `spec.finalizers[i]` on /finalize; `indexed` picks the form.
 */
function validateSpecFinalizers(obj: KubeObject, indexed: boolean): FieldError[] {
  const errs: FieldError[] = [];
  specFinalizers(obj).forEach((f, i) => {
    const field = indexed ? `spec.finalizers[${i}]` : 'spec.finalizers';
    for (const msg of isQualifiedName(f)) errs.push(fieldError.invalid(field, f, msg));
    if (!f.includes('/') && !STANDARD_FINALIZERS.includes(f)) {
      errs.push(fieldError.invalid(field, f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  });
  return errs;
}

/**
 * ValidateNamespaceStatusUpdate: the phase follows deletionTimestamp. Kubernetes defaults an empty phase to Active
 * before validating; Cascade applies no defaults to status writes, so an empty phase is read as Active here.
 */
function validateNamespaceStatus(next: KubeObject): FieldError[] {
  const status = isObject(next.status) ? next.status : {};
  const phase = typeof status.phase === 'string' && status.phase !== '' ? status.phase : 'Active';
  const deleting = typeof next.metadata.deletionTimestamp === 'string' && next.metadata.deletionTimestamp !== '';
  if (!deleting && phase !== 'Active') {
    return [fieldError.invalid('status.Phase', phase, "may only be 'Active' if `deletionTimestamp` is empty")];
  }
  if (deleting && phase !== 'Terminating') {
    return [fieldError.invalid('status.Phase', phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
  }
  return [];
}

/**
 * R5.6: namespaces choose their GC finalizers differently from the generic store: `orphanDependents=false` means
 * foreground, and without options the existing finalizers are kept as they are.
 */
export function namespaceDeletionFinalizers(
  opts: DeleteOptions,
  finalizers: readonly string[],
): { changed: boolean; finalizers: string[] } {
  const orphan =
    opts.orphanDependents === true ||
    opts.propagationPolicy === 'Orphan' ||
    (opts.orphanDependents === undefined && opts.propagationPolicy === undefined && finalizers.includes(FINALIZER_ORPHAN));
  const foreground =
    opts.orphanDependents === false ||
    opts.propagationPolicy === 'Foreground' ||
    (opts.orphanDependents === undefined && opts.propagationPolicy === undefined && finalizers.includes(FINALIZER_FOREGROUND));
  const next = finalizers.filter((f) => f !== FINALIZER_ORPHAN && f !== FINALIZER_FOREGROUND);
  if (orphan) next.push(FINALIZER_ORPHAN);
  if (foreground) next.push(FINALIZER_FOREGROUND);
  const changed = next.length !== finalizers.length || next.some((f) => !finalizers.includes(f));
  return { changed, finalizers: changed ? next : [...finalizers] };
}

const NAMESPACE_TYPES = coreKind({
  kind: 'Namespace',
  description: 'Scope for names; namespaced objects live in exactly one namespace.',
  properties: {
    spec: core('NamespaceSpec', 'Behaviour of the namespace.'),
    status: core('NamespaceStatus', 'Observed status of the namespace. Read-only.'),
  },
  listDescription: 'List of Namespace objects.',
  itemsDescription: 'The namespaces.',
});

const DEFINITIONS: Definitions = {
  ...NAMESPACE_TYPES,
  [`${CORE}NamespaceSpec`]: object('Attributes of a namespace.', {
    finalizers: stringArray('Values that must be empty before the namespace is removed from storage.'),
  }),
  [`${CORE}NamespaceStatus`]: object('Current status of a namespace.', {
    conditions: coreArray('NamespaceCondition', 'Latest observations of the namespace state.', mergeByKey('type')),
    phase: str('Current lifecycle phase of the namespace.', { enum: ['Active', 'Terminating'] }),
  }),
  [`${CORE}NamespaceCondition`]: object(
    'State of a namespace at one point in time.',
    {
      lastTransitionTime: time('Last time the condition changed from one status to another.'),
      message: str('Human-readable details about the last transition.'),
      reason: str('Machine-readable reason for the last transition.'),
      status: str('Status of the condition: True, False or Unknown.'),
      type: str('Type of the namespace condition.'),
    },
    { required: ['type', 'status'] },
  ),
};

const FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.core.v1.Namespace': { tags: { metadata: 1, spec: 2, status: 3 } },
  'io.k8s.api.core.v1.NamespaceCondition': {
    tags: { type: 1, status: 2, lastTransitionTime: 4, reason: 5, message: 6 },
  },
  'io.k8s.api.core.v1.NamespaceList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.core.v1.NamespaceSpec': { tags: { finalizers: 1 } },
  'io.k8s.api.core.v1.NamespaceStatus': { tags: { phase: 1, conditions: 2 } },
};

/** core/v1 Namespace: the namespace registry's rules (R5.1–R5.7): the `kubernetes` spec finalizer, Terminating, its own DELETE. */
export const NAMESPACE: KindDefinition = {
  resource: resourceInfo({
    group: '',
    version: 'v1',
    kind: 'Namespace',
    plural: 'namespaces',
    namespaced: false,
    shortNames: ['ns'],
    verbs: VERBS_NO_COLLECTION_DELETE,
    nameFormat: 'dns1123-label',
    subresources: [{ name: 'finalize', verbs: ['update'] }, STATUS],
  }),
  strategy: {
    returnDeletedObject: true,
    initialStatus: () => ({ phase: 'Active' }),
    defaults: (obj) => {
      obj.metadata.labels = { ...obj.metadata.labels, [NAMESPACE_NAME_LABEL]: obj.metadata.name ?? '' };
    },
    prepareForCreate: (obj) => {
      const finalizers = specFinalizers(obj);
      if (!finalizers.includes(FINALIZER_KUBERNETES)) finalizers.push(FINALIZER_KUBERNETES);
      specOf(obj).finalizers = finalizers;
    },
    // R5.3: spec.finalizers change only through /finalize.
    prepareForUpdate: (next, old) => {
      const finalizers = isObject(old.spec) ? old.spec.finalizers : undefined;
      if (finalizers === undefined) delete specOf(next).finalizers;
      else specOf(next).finalizers = finalizers;
    },
    validate: (obj) => validateSpecFinalizers(obj, false),
    // Plain updates keep the stored spec.finalizers (R5.3), so in practice this checks /finalize.
    validateUpdate: (next) => validateSpecFinalizers(next, true),
    validateStatusUpdate: validateNamespaceStatus,
    // R5.5: Terminating, and a namespace carries no deletionGracePeriodSeconds.
    markDeleting: (obj) => {
      obj.status = { ...(isObject(obj.status) ? obj.status : {}), phase: 'Terminating' };
      delete obj.metadata.deletionGracePeriodSeconds;
    },
    deletionFinalizers: namespaceDeletionFinalizers,
    readyToRemove: (obj) => specFinalizers(obj).length === 0,
  },
  fieldSelectors: {
    conversion: { labels: new Set(['status.phase', 'metadata.name']), error: notSupported },
    attrs: (obj) => ({ 'status.phase': textAttr(fieldAt(obj, 'status', 'phase')) }),
  },
  printer: {
    style: 'printer',
    columns: [NAME_COLUMN, column('Status', 'string', 'The status of the namespace'), AGE_COLUMN],
    row: (obj, now) => [obj.metadata.name ?? '', text(get(obj, 'status', 'phase')), age(obj.metadata.creationTimestamp, now)],
  },
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
