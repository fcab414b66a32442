import { type FieldError, fieldError } from '../../../../api/errors.js';
import type { KubeObject } from '../../../../api/types.js';
import { indexed } from './common.js';
import { validateContainerOnlyForPod } from './containers.js';
import { validatePodTemplateSpec } from './index.js';
import {
  APPARMOR_PREFIX,
  annotationsOf,
  isValidDeletionCost,
  MIRROR_POD_ANNOTATION,
  validateAppArmorAnnotationsAndFields,
  validatePodSpecificAnnotations,
  validateSeccompAnnotationsAndFields,
} from './pod-annotations.js';
import { validatePodSpecAt } from './pod-spec.js';
import { validatePodStatusFields } from './pod-status.js';
import { validatePodSpecUpdate } from './pod-update.js';
import { specOf, text } from '../../../../api/json-fields.js';

/** The Pod and PodTemplate kinds' validation entry points (ValidatePodCreate, ValidatePodUpdate, …). */

const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';

/** validatePodMetadataAndSpec, without ObjectMeta (the store validates it). */
function podMetadataAndSpec(pod: KubeObject, allowInvalidDeletionCost: boolean): FieldError[] {
  const spec = specOf(pod);
  const errs = validatePodSpecificAnnotations(annotationsOf(pod.metadata), spec, 'metadata.annotations', allowInvalidDeletionCost);
  errs.push(...validatePodSpecAt(spec, 'spec', { podName: typeof pod.metadata.name === 'string' ? pod.metadata.name : '', isPod: true }));
  // Kubernetes also forbids projected service account tokens without serviceAccountName, but its ServiceAccount
  // admission plugin always sets the name to "default" first; Cascade has no such plugin, so the check would refuse
  // pods a cluster accepts.
  for (const list of ['containers', 'initContainers'] as const) {
    for (const [container, i] of indexed(spec[list])) errs.push(...validateContainerOnlyForPod(container, `spec.${list}[${i}]`));
  }
  return errs;
}

/** ValidatePodCreate. */
export function validatePodCreate(pod: KubeObject): FieldError[] {
  const spec = specOf(pod);
  const errs = podMetadataAndSpec(pod, false);
  if (Array.isArray(spec.ephemeralContainers) && spec.ephemeralContainers.length > 0)
    errs.push(fieldError.forbidden('spec.ephemeralContainers', 'cannot be set on create'));
  if (text(spec.nodeName) !== '' && Array.isArray(spec.schedulingGates) && spec.schedulingGates.length > 0) {
    errs.push(fieldError.forbidden('spec.nodeName', 'cannot be set until all schedulingGates have been cleared'));
  }
  errs.push(...validateSeccompAnnotationsAndFields(annotationsOf(pod.metadata), spec, 'spec'));
  errs.push(...validateAppArmorAnnotationsAndFields(annotationsOf(pod.metadata), spec, 'spec'));
  return errs;
}

/** ValidatePodSpecificAnnotationUpdates: AppArmor and mirror-pod annotations are fixed at creation. */
function annotationUpdates(next: KubeObject, old: KubeObject, allowInvalidDeletionCost: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const nextAnnotations = annotationsOf(next.metadata);
  const oldAnnotations = annotationsOf(old.metadata);
  const path = 'metadata.annotations';
  for (const [key, value] of Object.entries(oldAnnotations)) {
    if (nextAnnotations[key] === value) continue;
    if (key.startsWith(APPARMOR_PREFIX))
      errs.push(fieldError.forbidden(`${path}[${key}]`, 'may not remove or update AppArmor annotations'));
    if (key === MIRROR_POD_ANNOTATION) errs.push(fieldError.forbidden(`${path}[${key}]`, 'may not remove or update mirror pod annotation'));
  }
  for (const key of Object.keys(nextAnnotations)) {
    if (key in oldAnnotations) continue;
    if (key.startsWith(APPARMOR_PREFIX)) errs.push(fieldError.forbidden(`${path}[${key}]`, 'may not add AppArmor annotations'));
    if (key === MIRROR_POD_ANNOTATION) errs.push(fieldError.forbidden(`${path}[${key}]`, 'may not add mirror pod annotation'));
  }
  errs.push(...validatePodSpecificAnnotations(nextAnnotations, specOf(next), path, allowInvalidDeletionCost));
  return errs;
}

/** An old pod with an invalid deletion cost keeps being accepted (GetValidationOptionsFromPodSpecAndMeta). */
function oldHadInvalidDeletionCost(old: KubeObject): boolean {
  const cost = annotationsOf(old.metadata)[DELETION_COST];
  return cost !== undefined && !isValidDeletionCost(cost);
}

/** ValidatePodUpdate. */
export function validatePodUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const allowCost = oldHadInvalidDeletionCost(old);
  return [...podMetadataAndSpec(next, allowCost), ...annotationUpdates(next, old, allowCost), ...validatePodSpecUpdate(next, old)];
}

/** ValidatePodStatusUpdate. */
export function validatePodStatusUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  return [...annotationUpdates(next, old, oldHadInvalidDeletionCost(old)), ...validatePodStatusFields(next, old)];
}

/** ValidatePodTemplate (create) and ValidatePodTemplateUpdate: the template under "template". */
export function validatePodTemplateObject(podTemplate: KubeObject): FieldError[] {
  return validatePodTemplateSpec(podTemplate.template, 'template');
}
