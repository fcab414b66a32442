import { isObject, type KubeObject } from '../api/types.js';
import { BUILTIN_RESOURCES } from '../api/builtin-resources.js';
import { type FieldRequirement, type FieldSelector, fieldSelectorFromRequirements } from './field-selector.js';
import { goQuote } from '../util/go-quote.js';
import { SelectorError } from './selector-error.js';

/**
 * Field selectors for built-in kinds, as kube-apiserver v1.32 serves them. Two tables matter:
 * - the field label conversion registered for the kind (pkg/apis/<group>/<version>/conversion.go) decides which
 *   labels a request may use and the error text for the rest; kinds without one get apimachinery's default, which
 *   only knows metadata.name and metadata.namespace (so e.g. `status.replicas` on ReplicaSets is rejected even
 *   though the storage exposes it);
 * - the strategy's GetAttrs (pkg/registry/<group>/<kind>/strategy.go) decides the values objects are matched on.
 */

interface Conversion {
  readonly labels: ReadonlySet<string>;
  /** Labels rewritten before matching (legacy spellings). */
  readonly renames?: Readonly<Record<string, string>>;
  readonly error: (label: string) => string;
}

const notSupported = (label: string): string => `field label not supported: ${label}`;

const CONVERSIONS: Readonly<Record<string, Conversion>> = {
  '/Pod': {
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
  '/Node': { labels: new Set(['metadata.name', 'spec.unschedulable']), error: notSupported },
  '/Event': {
    labels: new Set([
      'involvedObject.kind',
      'involvedObject.namespace',
      'involvedObject.name',
      'involvedObject.uid',
      'involvedObject.apiVersion',
      'involvedObject.resourceVersion',
      'involvedObject.fieldPath',
      'reason',
      'reportingComponent',
      'source',
      'type',
      'metadata.namespace',
      'metadata.name',
    ]),
    error: notSupported,
  },
  '/Namespace': { labels: new Set(['status.phase', 'metadata.name']), error: notSupported },
  '/Secret': { labels: new Set(['type', 'metadata.namespace', 'metadata.name']), error: notSupported },
  '/Service': {
    labels: new Set(['metadata.namespace', 'metadata.name', 'spec.clusterIP', 'spec.type']),
    error: notSupported,
  },
  '/ReplicationController': {
    labels: new Set(['metadata.name', 'metadata.namespace', 'status.replicas']),
    error: notSupported,
  },
  'batch/Job': {
    labels: new Set(['metadata.name', 'metadata.namespace', 'status.successful']),
    error: (label) => `field label ${goQuote(label)} not supported for batchv1.Job`,
  },
};

const DEFAULT_CONVERSION: Conversion = {
  labels: new Set(['metadata.name', 'metadata.namespace']),
  error: (label) => `${goQuote(label)} is not a known field selector: only "metadata.name", "metadata.namespace"`,
};

const conversionFor = (kind: string, group: string): Conversion => CONVERSIONS[`${group}/${kind}`] ?? DEFAULT_CONVERSION;

/** Whether a request may select on `field` for this kind (after legacy renames). */
export function isSupportedField(kind: string, group: string, field: string): boolean {
  const conversion = conversionFor(kind, group);
  return conversion.labels.has(field) || conversion.renames?.[field] !== undefined;
}

/**
 * Applies the kind's field label conversion to a parsed selector, as the list/watch handler does before
 * storage sees it. Throws SelectorError (→ 400 BadRequest) on the first unsupported label.
 */
export function convertFieldSelector(kind: string, group: string, selector: FieldSelector): FieldSelector {
  const conversion = conversionFor(kind, group);
  const converted: FieldRequirement[] = selector.requirements.map((requirement) => {
    const renamed = conversion.renames?.[requirement.field];
    if (renamed !== undefined) return { ...requirement, field: renamed };
    if (!conversion.labels.has(requirement.field)) throw new SelectorError(conversion.error(requirement.field));
    return requirement;
  });
  return fieldSelectorFromRequirements(converted);
}

const get = (value: unknown, ...path: string[]): unknown => {
  let current = value;
  for (const key of path) current = isObject(current) ? current[key] : undefined;
  return current;
};
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const integer = (value: unknown): string => (typeof value === 'number' ? String(Math.trunc(value)) : '0');
const flag = (value: unknown): string => (value === true ? 'true' : 'false');

function isNamespaced(kind: string, group: string, obj: KubeObject): boolean {
  const info = BUILTIN_RESOURCES.find((resource) => resource.kind === kind && resource.group === group);
  return info?.namespaced ?? obj.metadata.namespace !== undefined;
}

/** The core Event field set; events.k8s.io objects are read through their core spellings. */
function eventFields(obj: KubeObject, eventsApi: boolean): Record<string, string> {
  const involved = eventsApi ? get(obj, 'regarding') : get(obj, 'involvedObject');
  const reportingController = text(get(obj, 'reportingController'));
  const component = text(get(obj, eventsApi ? 'deprecatedSource' : 'source', 'component'));
  return {
    'involvedObject.kind': text(get(involved, 'kind')),
    'involvedObject.namespace': text(get(involved, 'namespace')),
    'involvedObject.name': text(get(involved, 'name')),
    'involvedObject.uid': text(get(involved, 'uid')),
    'involvedObject.apiVersion': text(get(involved, 'apiVersion')),
    'involvedObject.resourceVersion': text(get(involved, 'resourceVersion')),
    'involvedObject.fieldPath': text(get(involved, 'fieldPath')),
    reason: text(get(obj, 'reason')),
    reportingComponent: reportingController,
    source: component === '' ? reportingController : component,
    type: text(get(obj, 'type')),
  };
}

function podFields(obj: KubeObject): Record<string, string> {
  const podIPs = get(obj, 'status', 'podIPs');
  const firstIP = Array.isArray(podIPs) && podIPs.length > 0 ? text(get(podIPs[0], 'ip')) : text(get(obj, 'status', 'podIP'));
  return {
    'spec.nodeName': text(get(obj, 'spec', 'nodeName')),
    'spec.restartPolicy': text(get(obj, 'spec', 'restartPolicy')),
    'spec.schedulerName': text(get(obj, 'spec', 'schedulerName')),
    'spec.serviceAccountName': text(get(obj, 'spec', 'serviceAccountName')),
    'spec.hostNetwork': flag(get(obj, 'spec', 'hostNetwork')),
    'status.phase': text(get(obj, 'status', 'phase')),
    'status.podIP': firstIP,
    'status.nominatedNodeName': text(get(obj, 'status', 'nominatedNodeName')),
  };
}

function specificFields(kind: string, group: string, obj: KubeObject): Record<string, string> {
  switch (`${group}/${kind}`) {
    case '/Pod':
      return podFields(obj);
    case '/Node':
      return { 'spec.unschedulable': flag(get(obj, 'spec', 'unschedulable')) };
    case '/Namespace':
      return { 'status.phase': text(get(obj, 'status', 'phase')) };
    case '/Secret':
      return { type: text(get(obj, 'type')) };
    case '/Service':
      return { 'spec.clusterIP': text(get(obj, 'spec', 'clusterIP')), 'spec.type': text(get(obj, 'spec', 'type')) };
    case '/Event':
      return eventFields(obj, false);
    case 'events.k8s.io/Event':
      return eventFields(obj, true);
    case '/ReplicationController':
    case 'apps/ReplicaSet':
      return { 'status.replicas': integer(get(obj, 'status', 'replicas')) };
    case 'batch/Job':
      return { 'status.successful': integer(get(obj, 'status', 'succeeded')) };
    default:
      return {};
  }
}

/** The field set the storage matches field selectors against (the strategy's GetAttrs). */
export function selectableFields(kind: string, group: string, obj: KubeObject): Record<string, string> {
  const fields: Record<string, string> = { 'metadata.name': obj.metadata.name ?? '' };
  if (isNamespaced(kind, group, obj)) fields['metadata.namespace'] = obj.metadata.namespace ?? '';
  return { ...specificFields(kind, group, obj), ...fields };
}
