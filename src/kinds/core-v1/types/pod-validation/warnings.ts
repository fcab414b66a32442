import { isObject } from '../../../../api/types.js';
import { indexed, type Obj } from './common.js';
import { annotationsOf } from './pod-annotations.js';
import { allContainers } from './os-rules.js';
import { quantityNanos } from '../../../../validation/quantity-text.js';
import { asObject, text } from '../../../../api/json-fields.js';

/** The common warnings of pkg/api/pod's GetWarningsForPod / GetWarningsForPodTemplate (1.32). */

const DEPRECATED_NODE_LABELS: Readonly<Record<string, string>> = {
  'beta.kubernetes.io/arch': 'deprecated since v1.14; use "kubernetes.io/arch" instead',
  'beta.kubernetes.io/os': 'deprecated since v1.14; use "kubernetes.io/os" instead',
  'failure-domain.beta.kubernetes.io/region': 'deprecated since v1.17; use "topology.kubernetes.io/region" instead',
  'failure-domain.beta.kubernetes.io/zone': 'deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  'beta.kubernetes.io/instance-type': 'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
};
const DEPRECATED_ANNOTATIONS: readonly [string, string][] = [
  ['scheduler.alpha.kubernetes.io/critical-pod', 'non-functional in v1.16+; use the "priorityClassName" field instead'],
  ['security.alpha.kubernetes.io/sysctls', 'non-functional in v1.11+; use the "sysctls" field instead'],
  ['security.alpha.kubernetes.io/unsafe-sysctls', 'non-functional in v1.11+; use the "sysctls" field instead'],
];
const SECCOMP_MESSAGE = 'non-functional in v1.27+; use the "seccompProfile" field instead';
const SECCOMP_POD = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';
const APPARMOR_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
const FRACTIONAL_RESOURCES: readonly [string, string][] = [
  ['limits', 'memory'],
  ['requests', 'memory'],
  ['limits', 'ephemeral-storage'],
  ['requests', 'ephemeral-storage'],
];

function envWarnings(container: Obj, path: string): string[] {
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const [env, i] of indexed(container.env)) {
    const name = text(env.name);
    if (!seen.has(name)) {
      seen.add(name);
      continue;
    }
    const ref = `$(${name})`;
    const value = text(env.value);
    if (isObject(env.valueFrom) || value === ref || !value.includes(ref)) {
      warnings.push(`${path}.env[${i}]: hides previous definition of ${JSON.stringify(name)}, which may be dropped when using apply`);
    }
  }
  return warnings;
}

/** warningsForPodSpecAndMeta; `prefix` is "" for a pod and "spec.template." for a template. */
function specAndMetaWarnings(spec: Obj, meta: unknown, prefix: string, isTemplate: boolean): string[] {
  const warnings: string[] = [];
  const annotations = annotationsOf(meta);
  const nodeSelector = asObject(spec.nodeSelector) ?? {};
  for (const key of Object.keys(nodeSelector)) {
    const message = DEPRECATED_NODE_LABELS[key];
    if (message !== undefined) warnings.push(`${prefix}spec.nodeSelector[${key}]: ${message}`);
  }
  for (const [key, message] of DEPRECATED_ANNOTATIONS)
    if (key in annotations) warnings.push(`${prefix}metadata.annotations[${key}]: ${message}`);
  if (asObject(asObject(spec.securityContext)?.seccompProfile) === undefined && SECCOMP_POD in annotations) {
    warnings.push(`${prefix}metadata.annotations[${SECCOMP_POD}]: ${SECCOMP_MESSAGE}`);
  }
  for (const [volume, i] of indexed(spec.volumes))
    if (isObject(volume.gitRepo)) warnings.push(`${prefix}spec.volumes[${i}].gitRepo: deprecated in v1.11`);
  const grace = spec.terminationGracePeriodSeconds;
  if (typeof grace === 'number' && grace < 0) {
    warnings.push(`${prefix}spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1`);
  }
  for (const [field, label] of [
    ['hostAliases', 'ip'],
    ['imagePullSecrets', 'name'],
  ] as const) {
    const seen = new Set<string>();
    for (const [item, i] of indexed(spec[field])) {
      const value = text(item[label]);
      if (seen.has(value)) warnings.push(`${prefix}spec.${field}[${i}].${label}: duplicate ${label} ${JSON.stringify(value)}`);
      else seen.add(value);
    }
  }
  for (const [item, i] of indexed(spec.imagePullSecrets))
    if (text(item.name) === '') warnings.push(`${prefix}spec.imagePullSecrets[${i}].name: invalid empty name ""`);
  for (const [container, at] of allContainers(spec, `${prefix}spec`)) {
    const security = asObject(container.securityContext) ?? {};
    const name = text(container.name);
    if (security.seccompProfile === undefined && `${SECCOMP_CONTAINER_PREFIX}${name}` in annotations) {
      warnings.push(`${prefix}metadata.annotations[${SECCOMP_CONTAINER_PREFIX}${name}]: ${SECCOMP_MESSAGE}`);
    }
    if (isTemplate && security.appArmorProfile === undefined && `${APPARMOR_PREFIX}${name}` in annotations) {
      warnings.push(
        `${prefix}metadata.annotations[${APPARMOR_PREFIX}${name}]: deprecated since v1.30; use the "appArmorProfile" field instead`,
      );
    }
    const resources = asObject(container.resources) ?? {};
    for (const [kind, resource] of FRACTIONAL_RESOURCES) {
      const value = asObject(resources[kind])?.[resource];
      if (value !== undefined && quantityNanos(value) % 1_000_000_000n !== 0n) {
        warnings.push(
          `${at}.resources.${kind}[${resource}]: fractional byte value ${JSON.stringify(String(value))} is invalid, must be an integer`,
        );
      }
    }
    warnings.push(...envWarnings(container, at));
  }
  return warnings;
}

/** GetWarningsForPod. */
export function podWarnings(pod: { metadata: unknown; spec?: unknown }): string[] {
  return specAndMetaWarnings(isObject(pod.spec) ? pod.spec : {}, pod.metadata, '', false);
}

/** GetWarningsForPodTemplate; `path` names the template, e.g. "spec.template". */
export function podTemplateWarnings(template: unknown, path: string): string[] {
  if (!isObject(template)) return [];
  return specAndMetaWarnings(isObject(template.spec) ? template.spec : {}, template.metadata, `${path}.`, true);
}
