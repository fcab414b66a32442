import { forbidden } from '../api/errors.js';
import type { ResourceInfo } from '../api/resource-info.js';
import { isObject, type KubeObject } from '../api/types.js';
import type { MutatingAdmissionPlugin, ValidatingAdmissionPlugin } from '../registry/admission/plugin.js';

/** With no globalDefault class, a pod without a class gets priority 0 and the default preemption policy. */
const NO_CLASS_PRIORITY = 0;
const DEFAULT_PREEMPTION_POLICY = 'PreemptLowerPriority';
const PODS = { group: '', resource: 'pods' };
const PRIORITY_CLASSES = { group: 'scheduling.k8s.io', resource: 'priorityclasses' };

/** Reads the stored PriorityClasses: one by name, or all of them (to find the global default). */
export interface PriorityClassReader {
  get(name: string): Promise<KubeObject | undefined>;
  list(): Promise<readonly KubeObject[]>;
}

const isPod = (info: ResourceInfo): boolean => info.group === '' && info.plural === 'pods';
const isPriorityClass = (info: ResourceInfo): boolean => info.group === PRIORITY_CLASSES.group && info.plural === PRIORITY_CLASSES.resource;
const classValue = (pc: KubeObject): number => (typeof pc.value === 'number' ? pc.value : 0);

/** The global default class; with several, the one of lowest value (as the Priority plugin picks it). */
async function defaultClass(classes: PriorityClassReader): Promise<KubeObject | undefined> {
  let found: KubeObject | undefined;
  for (const pc of await classes.list()) {
    if (pc.globalDefault === true && (found === undefined || classValue(pc) < classValue(found))) found = pc;
  }
  return found;
}

async function admitPod(
  classes: PriorityClassReader,
  operation: 'CREATE' | 'UPDATE',
  obj: KubeObject,
  old: KubeObject | undefined,
): Promise<void> {
  if (!isObject(obj.spec)) return;
  const spec = obj.spec;
  if (operation === 'UPDATE') {
    // Set on create and immutable after: an update that leaves them out keeps them rather than failing validation.
    const oldSpec = isObject(old?.spec) ? old.spec : {};
    if (spec.priority === undefined && oldSpec.priority !== undefined) spec.priority = oldSpec.priority;
    if (spec.preemptionPolicy === undefined && oldSpec.preemptionPolicy !== undefined) spec.preemptionPolicy = oldSpec.preemptionPolicy;
    return;
  }
  const name = obj.metadata.name ?? '';
  const className = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : '';
  let priority = NO_CLASS_PRIORITY;
  let policy: unknown = DEFAULT_PREEMPTION_POLICY;
  if (className === '') {
    const fallback = await defaultClass(classes);
    if (fallback !== undefined) {
      spec.priorityClassName = fallback.metadata.name;
      priority = classValue(fallback);
      policy = fallback.preemptionPolicy;
    }
  } else {
    const pc = await classes.get(className);
    if (pc === undefined) throw forbidden(PODS, name, `no PriorityClass with name ${className} was found`);
    priority = classValue(pc);
    policy = pc.preemptionPolicy;
  }
  refuseOtherValue(name, 'integer value of priority', spec.priority, priority);
  spec.priority = priority;
  if (typeof policy !== 'string') return;
  refuseOtherValue(name, 'string value of PreemptionPolicy', spec.preemptionPolicy, policy);
  spec.preemptionPolicy = policy;
}

/** A value the pod sets itself must be the one its class gives, as the plugin words the refusal. */
function refuseOtherValue(name: string, what: string, given: unknown, computed: string | number): void {
  if (given === undefined || given === null || given === computed) return;
  throw forbidden(
    PODS,
    name,
    `the ${what} (${String(given)}) must not be provided in pod spec; priority admission controller computed ${computed} from the given PriorityClass name`,
  );
}

/** Only one class may be the global default: making a second one (or turning one into it) is refused. */
async function admitPriorityClass(classes: PriorityClassReader, obj: KubeObject, old: KubeObject | undefined): Promise<void> {
  if (obj.globalDefault !== true || old?.globalDefault === true) return;
  const existing = await defaultClass(classes);
  if (existing === undefined) return;
  throw forbidden(
    PRIORITY_CLASSES,
    obj.metadata.name ?? '',
    `PriorityClass ${existing.metadata.name ?? ''} is already marked as default. Only one default can exist`,
  );
}

/**
 * The Priority admission plugin: pods get `priority` and `preemptionPolicy` from their `priorityClassName` (or the
 * global default class) on creation, refusing (403) an unknown class and values that differ from the class's
 * (mutating phase); a second global default PriorityClass is refused (validating phase).
 */
export function podPriority(classes: PriorityClassReader): MutatingAdmissionPlugin & ValidatingAdmissionPlugin {
  return {
    name: 'Priority',
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    admit: async ({ operation, resource, object, oldObject }) => {
      if ((operation === 'CREATE' || operation === 'UPDATE') && object !== undefined && isPod(resource))
        await admitPod(classes, operation, object, oldObject);
    },
    validate: async ({ resource, object, oldObject }) => {
      if (object !== undefined && isPriorityClass(resource)) await admitPriorityClass(classes, object, oldObject);
    },
  };
}
