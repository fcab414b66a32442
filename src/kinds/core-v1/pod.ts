import { isObject, type KubeObject } from '../../api/types.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { fieldAt, flagAttr, notSupported, textAttr } from '../define/field-selectors.js';
import { resourceInfo, STATUS } from '../define/resource.js';
import { POD_PRINTER } from './pod-printer.js';
import { specOf } from './types/kind-defaults.js';
import { defaultPod, qosClass } from './types/pod-defaults.js';

function podGracePeriod(obj: KubeObject, requested: number | undefined): number {
  const s = specOf(obj);
  const phase = isObject(obj.status) ? obj.status.phase : undefined;
  // R2.17: an unscheduled or finished pod has nothing to wait for.
  if (typeof s.nodeName !== 'string' || s.nodeName === '' || phase === 'Succeeded' || phase === 'Failed') return 0;
  if (requested !== undefined) return requested;
  return typeof s.terminationGracePeriodSeconds === 'number' ? s.terminationGracePeriodSeconds : 30;
}

function podFields(obj: KubeObject): Record<string, string> {
  const podIPs = fieldAt(obj, 'status', 'podIPs');
  const firstIP = Array.isArray(podIPs) && podIPs.length > 0 ? textAttr(fieldAt(podIPs[0], 'ip')) : textAttr(fieldAt(obj, 'status', 'podIP'));
  return {
    'spec.nodeName': textAttr(fieldAt(obj, 'spec', 'nodeName')),
    'spec.restartPolicy': textAttr(fieldAt(obj, 'spec', 'restartPolicy')),
    'spec.schedulerName': textAttr(fieldAt(obj, 'spec', 'schedulerName')),
    'spec.serviceAccountName': textAttr(fieldAt(obj, 'spec', 'serviceAccountName')),
    'spec.hostNetwork': flagAttr(fieldAt(obj, 'spec', 'hostNetwork')),
    'status.phase': textAttr(fieldAt(obj, 'status', 'phase')),
    'status.podIP': firstIP,
    'status.nominatedNodeName': textAttr(fieldAt(obj, 'status', 'nominatedNodeName')),
  };
}

/** core/v1 Pod: graceful deletion (R2.17), its QoS class, and the field selectors kubelets and kubectl use. */
export const POD: KindDefinition = {
  resource: resourceInfo({
    group: '',
    version: 'v1',
    kind: 'Pod',
    plural: 'pods',
    namespaced: true,
    shortNames: ['po'],
    categories: ['all'],
    subresources: [STATUS],
  }),
  strategy: {
    returnDeletedObject: true,
    defaults: (obj) => defaultPod(specOf(obj)),
    initialStatus: (obj) => ({ phase: 'Pending', qosClass: qosClass(specOf(obj)) }),
    gracePeriodFor: podGracePeriod,
  },
  fieldSelectors: {
    conversion: {
      labels: new Set([
        'metadata.name',
        'metadata.namespace',
        'spec.nodeName',
        'spec.restartPolicy',
        'spec.schedulerName',
        'spec.serviceAccountName',
        'spec.hostNetwork',
        'status.phase',
        'status.podIP',
        'status.podIPs',
        'status.nominatedNodeName',
      ]),
      renames: { 'spec.host': 'spec.nodeName' },
      error: notSupported,
    },
    attrs: podFields,
  },
  printer: POD_PRINTER,
};
