import { fieldError, invalid } from '../api/errors.js';
import { isObject, type KubeObject } from '../api/types.js';
import { asLabelSelectorObject, labelSelectorAsSelector } from '../selectors/label-selector-object.js';
import type { ResourceStore, WriteOptions } from './store.js';

/** Where a resource's /scale subresource reads and writes replicas. */
export type ScalePaths = NonNullable<ResourceStore['strategy']['scale']>;

/** Built-in workloads keep replicas at .spec.replicas / .status.replicas and a LabelSelector at .spec.selector. */
const BUILTIN_SCALE: ScalePaths = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' };

/** The scale paths of a store: a custom resource's own, else the built-in workloads'. */
export function scalePathsOf(store: ResourceStore): ScalePaths {
  return store.strategy.scale ?? BUILTIN_SCALE;
}

function segments(path: string): string[] {
  return path.replace(/^\./, '').split('.');
}

function getAt(obj: KubeObject, path: string): unknown {
  let current: unknown = obj;
  for (const part of segments(path)) current = isObject(current) ? current[part] : undefined;
  return current;
}

/** Writes the replica count the Scale asks for at the object's spec replicas path. */
export function setScaleReplicas(obj: KubeObject, paths: ScalePaths, replicas: number): void {
  const parts = segments(paths.specReplicasPath);
  let current: Record<string, unknown> = obj;
  for (const part of parts.slice(0, -1)) {
    if (!isObject(current[part])) current[part] = {};
    current = current[part] as Record<string, unknown>;
  }
  current[parts[parts.length - 1] ?? ''] = replicas;
}

/**
 * The label selector as a string: custom resources point at one; apps/v1 workloads hold a LabelSelector object and
 * a ReplicationController a plain map of labels to equal.
 */
function selectorOf(obj: KubeObject, paths: ScalePaths): string {
  if (paths.labelSelectorPath !== undefined) {
    const value = getAt(obj, paths.labelSelectorPath);
    return typeof value === 'string' ? value : '';
  }
  if (paths !== BUILTIN_SCALE) return '';
  const selector = getAt(obj, '.spec.selector');
  const labelMap = obj.kind === 'ReplicationController' ? { matchLabels: selector } : selector;
  try {
    return labelSelectorAsSelector(asLabelSelectorObject(labelMap)).toString();
  } catch {
    return '';
  }
}

/** The autoscaling/v1 Scale view of an object, through its scale paths. */
export function scaleOf(obj: KubeObject, paths: ScalePaths): KubeObject {
  const meta = obj.metadata;
  const specReplicas = getAt(obj, paths.specReplicasPath);
  const statusReplicas = getAt(obj, paths.statusReplicasPath);
  const selector = selectorOf(obj, paths);
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: meta.name,
      namespace: meta.namespace,
      uid: meta.uid,
      resourceVersion: meta.resourceVersion,
      creationTimestamp: meta.creationTimestamp,
    },
    spec: { replicas: typeof specReplicas === 'number' ? specReplicas : 0 },
    status: { replicas: typeof statusReplicas === 'number' ? statusReplicas : 0, ...(selector === '' ? {} : { selector }) },
  };
}

/**
 * A write of a Scale to its parent (what PUT .../scale does, for in-process callers): the replicas land at the
 * parent's spec replicas path, guarded by the Scale's resourceVersion when it carries one; answers the new Scale.
 */
export async function writeScale(
  store: ResourceStore,
  namespace: string | undefined,
  scale: KubeObject,
  opts: { user?: WriteOptions['user']; fieldManager?: string },
): Promise<KubeObject> {
  const name = scale.metadata.name ?? '';
  const spec = isObject(scale.spec) ? scale.spec : {};
  const replicas = typeof spec.replicas === 'number' ? spec.replicas : 0;
  if (replicas < 0) {
    throw invalid('Scale.autoscaling', 'autoscaling', 'Scale', name, [
      fieldError.invalid('spec.replicas', replicas, 'must be greater than or equal to 0'),
    ]);
  }
  const rv = scale.metadata.resourceVersion;
  const paths = scalePathsOf(store);
  const updated = await store.guaranteedUpdate(namespace, name, { ...opts, subresource: 'scale' }, (current) => {
    if (rv !== undefined && rv !== '' && rv !== current.metadata.resourceVersion) throw store.conflictError(name);
    setScaleReplicas(current, paths, replicas);
    return current;
  });
  return scaleOf(updated, paths);
}
