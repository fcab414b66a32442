import { type FieldError, fieldError, GoLiteral } from '../../../../api/errors.js';
import { isObject, type KubeObject } from '../../../../api/types.js';
import { goQuote } from '../../../../util/go-quote.js';
import { inclusiveRange, indexed, MAX_INT32, type Obj } from './common.js';
import { validateTolerations } from './scheduling.js';
import { differences, semanticEqual } from './semantic-equal.js';
import { isInt, specOf, text } from '../../../../api/json-fields.js';

/** ValidatePodUpdate's rules for what may change in a pod's spec once it exists. */

const UPDATABLE_FIELDS = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
].join(',');

/** ValidateContainerUpdates: same number of containers, each with an image; stop when the count changed. */
function containerUpdates(next: unknown, old: unknown, path: string): { errors: FieldError[]; stop: boolean } {
  const nextList = Array.isArray(next) ? next : [];
  const oldList = Array.isArray(old) ? old : [];
  if (nextList.length !== oldList.length)
    return { errors: [fieldError.forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  const errors: FieldError[] = [];
  for (const [container, i] of indexed(nextList)) {
    const image = text(container.image);
    if (image === '') errors.push(fieldError.required(`${path}[${i}].image`));
    if (image.trim() !== image)
      errors.push(fieldError.invalid(`${path}[${i}].image`, image, 'must not have leading or trailing whitespace'));
  }
  return { errors, stop: false };
}

/** validateOnlyAddedTolerations: each old toleration survives, tolerationSeconds aside. */
function onlyAddedTolerations(next: unknown, old: unknown, path: string): FieldError[] {
  const nextList = indexed(next).map(([t]) => t);
  for (const [previous] of indexed(old)) {
    const kept = nextList.some((t) => semanticEqual({ ...previous, tolerationSeconds: undefined }, { ...t, tolerationSeconds: undefined }));
    if (!kept) return [fieldError.forbidden(path, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return validateTolerations(next, path);
}

/** validateOnlyDeletedSchedulingGates. */
function onlyDeletedGates(next: unknown, old: unknown, path: string): FieldError[] {
  const oldNames = new Set(indexed(old).map(([g]) => text(g.name)));
  const added = new Map<string, number>();
  for (const [gate, i] of indexed(next)) added.set(text(gate.name), i);
  for (const name of oldNames) added.delete(name);
  return [...added].map(([name, i]) =>
    fieldError.forbidden(`${path}[${i}].name`, `only deletion is allowed, but found new scheduling gate '${name}'`),
  );
}

/** The spec with every field an update may change put back to its old value (the "munged" spec). */
function mungedSpec(next: Obj, old: Obj): Obj {
  const munged: Obj = { ...next };
  for (const list of ['containers', 'initContainers'] as const) {
    const oldList = Array.isArray(old[list]) ? old[list] : [];
    if (Array.isArray(next[list])) {
      munged[list] = next[list].map((c: unknown, i: number) =>
        isObject(c) ? { ...c, image: isObject(oldList[i]) ? oldList[i].image : undefined } : c,
      );
    }
  }
  munged.activeDeadlineSeconds = old.activeDeadlineSeconds;
  munged.schedulingGates = old.schedulingGates;
  munged.tolerations = old.tolerations;
  if (isInt(old.terminationGracePeriodSeconds) && old.terminationGracePeriodSeconds < 0 && next.terminationGracePeriodSeconds === 1) {
    munged.terminationGracePeriodSeconds = old.terminationGracePeriodSeconds;
  }
  return munged;
}

/** Gated pods may gain node selector entries (validateNodeSelectorMutation); the selector is then munged back. */
function gatedNodeSelector(munged: Obj, old: Obj): FieldError[] {
  if (!Array.isArray(old.schedulingGates) || old.schedulingGates.length === 0 || semanticEqual(munged.nodeSelector, old.nodeSelector))
    return [];
  const oldSelector = isObject(old.nodeSelector) ? old.nodeSelector : {};
  const nextSelector = isObject(munged.nodeSelector) ? munged.nodeSelector : {};
  munged.nodeSelector = old.nodeSelector;
  if (Object.entries(oldSelector).every(([k, v]) => nextSelector[k] === v)) return [];
  const shown = `map[string]string{${Object.keys(nextSelector)
    .sort()
    .map((k) => `${goQuote(k)}:${goQuote(String(nextSelector[k]))}`)
    .join(', ')}}`;
  return [
    fieldError.invalid(
      'spec.nodeSelector',
      new GoLiteral(shown),
      'only additions to spec.nodeSelector are allowed (no mutations or deletions)',
    ),
  ];
}

const REQUIRED_TERMS = 'requiredDuringSchedulingIgnoredDuringExecution';

/** validateNodeSelectorTermHasOnlyAdditions: old expressions and fields stay, in place, at the front. */
function onlyAdditions(next: Obj, old: Obj): boolean {
  const oldExpressions = Array.isArray(old.matchExpressions) ? old.matchExpressions : [];
  const oldFields = Array.isArray(old.matchFields) ? old.matchFields : [];
  const nextExpressions = Array.isArray(next.matchExpressions) ? next.matchExpressions : [];
  const nextFields = Array.isArray(next.matchFields) ? next.matchFields : [];
  if (oldExpressions.length === 0 && oldFields.length === 0 && (nextExpressions.length > 0 || nextFields.length > 0)) return false;
  if (nextExpressions.length < oldExpressions.length || !semanticEqual(nextExpressions.slice(0, oldExpressions.length), oldExpressions))
    return false;
  return nextFields.length >= oldFields.length && semanticEqual(nextFields.slice(0, oldFields.length), oldFields);
}

/** validateNodeAffinityMutation: a gated pod's required node terms may only gain requirements. */
function nodeAffinityMutation(next: Obj | undefined, old: Obj | undefined, path: string): FieldError[] {
  const oldRequired = old === undefined ? undefined : isObject(old[REQUIRED_TERMS]) ? old[REQUIRED_TERMS] : undefined;
  if (oldRequired === undefined) return [];
  const oldTerms = indexed(oldRequired.nodeSelectorTerms).map(([t]) => t);
  const nextRequired = next !== undefined && isObject(next[REQUIRED_TERMS]) ? next[REQUIRED_TERMS] : undefined;
  const nextTerms = indexed(nextRequired?.nodeSelectorTerms).map(([t]) => t);
  const termsPath = `${path}.${REQUIRED_TERMS}.nodeSelectorTerms`;
  if (oldTerms.length > 0 && oldTerms.length !== nextTerms.length) {
    return [fieldError.invalid(termsPath, nextTerms, 'no additions/deletions to non-empty NodeSelectorTerms list are allowed')];
  }
  return oldTerms.flatMap((term, i) =>
    onlyAdditions(nextTerms[i] ?? {}, term)
      ? []
      : [fieldError.invalid(`${termsPath}[${i}]`, nextTerms[i], 'only additions are allowed (no mutations or deletions)')],
  );
}

/** Gated pods may also gain node affinity requirements; the affinity is then munged back as Kubernetes does. */
function gatedNodeAffinity(munged: Obj, old: Obj): FieldError[] {
  if (!Array.isArray(old.schedulingGates) || old.schedulingGates.length === 0) return [];
  const oldAffinity = isObject(old.affinity) ? old.affinity : undefined;
  const mungedAffinity = isObject(munged.affinity) ? munged.affinity : undefined;
  const oldNode = oldAffinity !== undefined && isObject(oldAffinity.nodeAffinity) ? oldAffinity.nodeAffinity : undefined;
  const mungedNode = mungedAffinity !== undefined && isObject(mungedAffinity.nodeAffinity) ? mungedAffinity.nodeAffinity : undefined;
  if (semanticEqual(oldNode, mungedNode)) return [];
  const errs = nodeAffinityMutation(mungedNode, oldNode, 'spec.affinity.nodeAffinity');
  if (mungedAffinity === undefined) {
    if (oldNode !== undefined) munged.affinity = { nodeAffinity: oldNode };
  } else if (oldAffinity === undefined && mungedAffinity.podAffinity === undefined && mungedAffinity.podAntiAffinity === undefined) {
    munged.affinity = undefined;
  } else munged.affinity = { ...mungedAffinity, nodeAffinity: oldNode };
  return errs;
}

/** A compact rendering of what changed, in place of the Go struct diff kube-apiserver appends. */
function renderDiff(old: Obj, munged: Obj): string {
  const lines = differences(old, munged, '').map(
    ([path, before, after]) => `- \t${path}: ${JSON.stringify(before) ?? 'nil'}\n+ \t${path}: ${JSON.stringify(after) ?? 'nil'}`,
  );
  return `  core.PodSpec{\n${lines.join('\n')}\n  }\n`;
}

/** The spec part of ValidatePodUpdate (metadata and the full spec validation are run by the caller). */
export function validatePodSpecUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const nextSpec = specOf(next);
  const oldSpec = specOf(old);
  const errs: FieldError[] = [];
  for (const list of ['containers', 'initContainers'] as const) {
    const result = containerUpdates(nextSpec[list], oldSpec[list], `spec.${list}`);
    errs.push(...result.errors);
    if (result.stop) return errs;
  }
  const deadline = nextSpec.activeDeadlineSeconds;
  if (isInt(deadline)) {
    if (deadline < 0 || deadline > MAX_INT32)
      return [...errs, fieldError.invalid('spec.activeDeadlineSeconds', deadline, inclusiveRange(0, MAX_INT32))];
    if (isInt(oldSpec.activeDeadlineSeconds) && oldSpec.activeDeadlineSeconds < deadline) {
      return [...errs, fieldError.invalid('spec.activeDeadlineSeconds', deadline, 'must be less than or equal to previous value')];
    }
  } else if (isInt(oldSpec.activeDeadlineSeconds)) {
    errs.push(fieldError.invalid('spec.activeDeadlineSeconds', null, 'must not update from a positive integer to nil value'));
  }
  errs.push(...onlyAddedTolerations(nextSpec.tolerations, oldSpec.tolerations, 'spec.tolerations'));
  errs.push(...onlyDeletedGates(nextSpec.schedulingGates, oldSpec.schedulingGates, 'spec.schedulingGates'));
  if (semanticEqual(nextSpec, oldSpec)) return errs;
  const munged = mungedSpec(nextSpec, oldSpec);
  errs.push(...gatedNodeSelector(munged, oldSpec), ...gatedNodeAffinity(munged, oldSpec));
  if (!semanticEqual(munged, oldSpec)) {
    errs.push(
      fieldError.forbidden('spec', `pod updates may not change fields other than ${UPDATABLE_FIELDS}\n${renderDiff(oldSpec, munged)}`),
    );
  }
  return errs;
}
