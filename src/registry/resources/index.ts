import type { ResourceInfo } from '../../api/resource-info.js';
import { isObject, type KubeObject } from '../../api/types.js';
import type { Strategy } from '../strategy.js';
import { mergeSecretStringData, validateConfigMap, validateSecret } from './config-data.js';
import { genericStrategy } from './generic.js';
import { namespaceStrategy } from './namespaces.js';
import {
  defaultClaimTemplates,
  defaultEndpointSlice,
  defaultEndpoints,
  defaultNode,
  defaultPersistentVolume,
  defaultRbacSubjects,
  defaultReplicationController,
  defaultService,
  STATUS_ZERO_VALUES,
  specOf as spec,
} from './kind-defaults.js';
import { defaultPod, defaultPodTemplate, qosClass } from './pod-defaults.js';

function defaultWorkload(obj: KubeObject, extra: (s: Record<string, unknown>) => void): void {
  const s = spec(obj);
  extra(s);
  defaultPodTemplate(s.template);
}

function podGracePeriod(obj: KubeObject, requested: number | undefined): number {
  const s = spec(obj);
  const phase = isObject(obj.status) ? obj.status.phase : undefined;
  // R2.17: an unscheduled or finished pod has nothing to wait for.
  if (typeof s.nodeName !== 'string' || s.nodeName === '' || phase === 'Succeeded' || phase === 'Failed') return 0;
  if (requested !== undefined) return requested;
  return typeof s.terminationGracePeriodSeconds === 'number' ? s.terminationGracePeriodSeconds : 30;
}

function defaultJob(obj: KubeObject): void {
  const uid = obj.metadata.uid ?? '';
  const name = obj.metadata.name ?? '';
  const s = spec(obj);
  if (s.completions === undefined && s.parallelism === undefined) {
    s.completions = 1;
    s.parallelism = 1;
  }
  s.parallelism ??= 1;
  // With a per-index limit, the job-wide one no longer bounds anything unless the user sets it.
  s.backoffLimit ??= s.backoffLimitPerIndex === undefined ? 6 : 2147483647;
  s.completionMode ??= 'NonIndexed';
  s.suspend ??= false;
  const failurePolicy = isObject(s.podFailurePolicy) ? s.podFailurePolicy : undefined;
  for (const rule of Array.isArray(failurePolicy?.rules) ? failurePolicy.rules : []) {
    if (!isObject(rule) || !Array.isArray(rule.onPodConditions)) continue;
    for (const pattern of rule.onPodConditions) if (isObject(pattern) && (pattern.status ?? '') === '') pattern.status = 'True';
  }
  s.podReplacementPolicy ??= failurePolicy === undefined ? 'TerminatingOrFailed' : 'Failed';
  // The job controller owns its pods through generated labels unless the user chose manualSelector.
  if (s.manualSelector !== true && uid !== '' && s.selector === undefined) {
    s.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } };
    if (isObject(s.template)) {
      const template = s.template;
      if (!isObject(template.metadata)) template.metadata = {};
      const meta = template.metadata as Record<string, unknown>;
      meta.labels = {
        ...(isObject(meta.labels) ? meta.labels : {}),
        'batch.kubernetes.io/controller-uid': uid,
        'batch.kubernetes.io/job-name': name,
        'controller-uid': uid,
        'job-name': name,
      };
    }
  }
  // batch/v1 defaulting gives a Job without labels its template's. kube-apiserver defaults again when it reads the
  // created Job back from storage, so the Job ends up with the generated controller-uid and job-name labels too.
  const templateLabels = isObject(s.template) && isObject(s.template.metadata) ? s.template.metadata.labels : undefined;
  const labels = obj.metadata.labels;
  if (isObject(templateLabels) && (labels === undefined || Object.keys(labels).length === 0)) {
    obj.metadata.labels = { ...(templateLabels as Record<string, string>) };
  }
  defaultPodTemplate(s.template);
}

function strategyOf(info: ResourceInfo): Strategy {
  const key = info.group === '' ? info.plural : `${info.plural}.${info.group}`;
  switch (key) {
    case 'pods':
      return genericStrategy(info, {
        returnDeletedObject: true,
        defaults: (obj) => defaultPod(spec(obj)),
        initialStatus: (obj) => ({ phase: 'Pending', qosClass: qosClass(spec(obj)) }),
        gracePeriodFor: podGracePeriod,
      });
    case 'namespaces':
      return namespaceStrategy(info);
    case 'services':
      return genericStrategy(info, {
        returnDeletedObject: true,
        defaults: defaultService,
        initialStatus: () => ({}),
        statusZeroValues: STATUS_ZERO_VALUES.services,
      });
    case 'replicationcontrollers':
      return genericStrategy(info, {
        specGeneration: true,
        // core/v1 keeps the pre-garbage-collector default: deleting a controller leaves its pods.
        gcPolicy: 'OrphanDependents',
        initialStatus: () => ({}),
        statusZeroValues: STATUS_ZERO_VALUES.replicationcontrollers,
        defaults: defaultReplicationController,
      });
    case 'endpoints':
      return genericStrategy(info, { defaults: defaultEndpoints });
    case 'endpointslices.discovery.k8s.io':
      return genericStrategy(info, { defaults: defaultEndpointSlice });
    case 'rolebindings.rbac.authorization.k8s.io':
    case 'clusterrolebindings.rbac.authorization.k8s.io':
      return genericStrategy(info, { defaults: defaultRbacSubjects });
    case 'serviceaccounts':
      return genericStrategy(info, { returnDeletedObject: true });
    case 'secrets':
      return genericStrategy(info, {
        defaults: (obj) => {
          obj.type ??= 'Opaque';
          mergeSecretStringData(obj);
        },
        validate: validateSecret,
      });
    case 'configmaps':
      return genericStrategy(info, { validate: validateConfigMap });
    case 'events':
      return genericStrategy(info, { gcPolicy: 'Unsupported' });
    case 'nodes':
      return genericStrategy(info, { initialStatus: 'keep', defaults: defaultNode, statusZeroValues: STATUS_ZERO_VALUES.nodes });
    case 'persistentvolumeclaims':
      return genericStrategy(info, {
        initialStatus: () => ({ phase: 'Pending' }),
        defaults: (obj) => {
          spec(obj).volumeMode ??= 'Filesystem';
        },
      });
    case 'persistentvolumes':
      return genericStrategy(info, {
        // The phase's transition time starts at creation (PersistentVolumeLastPhaseTransitionTime, GA in 1.31).
        initialStatus: (obj) => ({ phase: 'Pending', lastPhaseTransitionTime: obj.metadata.creationTimestamp }),
        defaults: defaultPersistentVolume,
      });
    case 'deployments.apps':
      return genericStrategy(info, {
        specGeneration: true,
        initialStatus: () => ({}),
        defaults: (obj) =>
          defaultWorkload(obj, (s) => {
            s.replicas ??= 1;
            s.strategy ??= { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } };
            s.revisionHistoryLimit ??= 10;
            s.progressDeadlineSeconds ??= 600;
          }),
      });
    case 'replicasets.apps':
      return genericStrategy(info, {
        specGeneration: true,
        initialStatus: () => ({}),
        statusZeroValues: STATUS_ZERO_VALUES['replicasets.apps'],
        defaults: (obj) =>
          defaultWorkload(obj, (s) => {
            s.replicas ??= 1;
          }),
      });
    case 'statefulsets.apps':
      return genericStrategy(info, {
        specGeneration: true,
        initialStatus: () => ({}),
        statusZeroValues: STATUS_ZERO_VALUES['statefulsets.apps'],
        defaults: (obj) =>
          defaultWorkload(obj, (s) => {
            defaultClaimTemplates(s);
            s.replicas ??= 1;
            s.podManagementPolicy ??= 'OrderedReady';
            s.updateStrategy ??= { type: 'RollingUpdate', rollingUpdate: { partition: 0 } };
            s.revisionHistoryLimit ??= 10;
            s.persistentVolumeClaimRetentionPolicy ??= { whenDeleted: 'Retain', whenScaled: 'Retain' };
          }),
      });
    case 'daemonsets.apps':
      return genericStrategy(info, {
        specGeneration: true,
        initialStatus: () => ({}),
        statusZeroValues: STATUS_ZERO_VALUES['daemonsets.apps'],
        defaults: (obj) =>
          defaultWorkload(obj, (s) => {
            s.updateStrategy ??= { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } };
            s.revisionHistoryLimit ??= 10;
          }),
      });
    case 'jobs.batch':
      return genericStrategy(info, { specGeneration: true, gcPolicy: 'OrphanDependents', initialStatus: () => ({}), defaults: defaultJob });
    default:
      return genericStrategy(info);
  }
}

const cache = new WeakMap<ResourceInfo, Strategy>();

export function strategyFor(info: ResourceInfo): Strategy {
  let strategy = cache.get(info);
  if (strategy === undefined) {
    strategy = strategyOf(info);
    cache.set(info, strategy);
  }
  return strategy;
}
