import { badRequest, conflict, fieldError, type FieldError, invalid } from '../api/errors.js';
import { isObject, type KubeObject } from '../api/types.js';
import type { UserInfo } from '../api/user.js';
import type { ResourceStore } from './store.js';

/** Where Kubernetes reports binding refusals: the subresource, not the pod (BindingREST's qualified resource). */
const BINDING_REF = { group: '', resource: 'pods/binding' };

/** ValidatePodBinding: a target is a Node, named. */
function validateBinding(binding: KubeObject): FieldError[] {
  const target = isObject(binding.target) ? binding.target : {};
  const errs: FieldError[] = [];
  if (target.kind !== undefined && target.kind !== '' && target.kind !== 'Node') {
    errs.push(fieldError.notSupported('target.kind', target.kind, ['Node', '<empty>']));
  }
  if (typeof target.name !== 'string' || target.name === '') errs.push(fieldError.required('target.name', ''));
  return errs;
}

function upsertScheduledCondition(status: Record<string, unknown>, now: string): void {
  const conditions = Array.isArray(status.conditions) ? status.conditions.filter(isObject) : [];
  const scheduled = { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: now };
  const at = conditions.findIndex((c) => c.type === 'PodScheduled');
  if (at < 0) conditions.push(scheduled);
  else if (conditions[at]?.status !== 'True') conditions[at] = scheduled;
  status.conditions = conditions;
}

/**
 * POST pods/<name>/binding (BindingREST.Create → assignPod): in one write the pod gets its node, the Binding's
 * annotations and PodScheduled=True; a deleted, bound or gated pod is refused with 409 on pods/binding.
 */
export async function bindPod(
  pods: ResourceStore,
  namespace: string,
  podName: string,
  binding: KubeObject,
  user: UserInfo | undefined,
  options: { dryRun?: boolean; now?: () => Date } = {},
): Promise<KubeObject> {
  const now = options.now ?? (() => new Date());
  if (binding.metadata.name !== podName) throw badRequest('name in URL does not match name in Binding object');
  const errs = validateBinding(binding);
  if (errs.length > 0) throw invalid('Binding', '', 'Binding', podName, errs);
  const nodeName = (binding.target as { name: string }).name;
  const uid = binding.metadata.uid;
  const rv = binding.metadata.resourceVersion;
  return pods.guaranteedUpdate(namespace, podName, { user, subresource: 'binding', dryRun: options.dryRun }, (pod) => {
    const meta = pod.metadata;
    if (uid !== undefined && uid !== '' && uid !== meta.uid) {
      throw conflict(BINDING_REF, podName, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${meta.uid}`);
    }
    if (rv !== undefined && rv !== '' && rv !== meta.resourceVersion) {
      throw conflict(
        BINDING_REF,
        podName,
        `Precondition failed: ResourceVersion in precondition: ${rv}, ResourceVersion in object meta: ${meta.resourceVersion}`,
      );
    }
    if (meta.deletionTimestamp !== undefined)
      throw conflict(BINDING_REF, podName, `pod ${podName} is being deleted, cannot be assigned to a host`);
    const spec = isObject(pod.spec) ? pod.spec : {};
    if (typeof spec.nodeName === 'string' && spec.nodeName !== '') {
      throw conflict(BINDING_REF, podName, `pod ${podName} is already assigned to node ${JSON.stringify(spec.nodeName)}`);
    }
    if (Array.isArray(spec.schedulingGates) && spec.schedulingGates.length > 0) {
      throw conflict(BINDING_REF, podName, `pod ${podName} has non-empty .spec.schedulingGates`);
    }
    spec.nodeName = nodeName;
    pod.spec = spec;
    if (binding.metadata.annotations !== undefined) {
      meta.annotations = { ...(meta.annotations ?? {}), ...binding.metadata.annotations };
    }
    const status = isObject(pod.status) ? pod.status : {};
    upsertScheduledCondition(
      status,
      now()
        .toISOString()
        .replace(/\.\d{3}Z$/, 'Z'),
    );
    pod.status = status;
    return pod;
  });
}
