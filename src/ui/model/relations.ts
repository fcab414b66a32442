import { isObject, type KubeObject } from '../../api/types.js';
import type { ObjectStore, StoredObject } from './object-store.js';

/** The relations beyond owner references, as kube-lineage draws them; each can be switched on and off. */
export type Relation = 'selector' | 'node' | 'storage' | 'config' | 'rbac' | 'events';

export const RELATIONS: readonly { readonly id: Relation; readonly label: string }[] = [
  { id: 'selector', label: 'Service → Pods by selector' },
  { id: 'node', label: 'Pod → Node' },
  { id: 'storage', label: 'Pod → PVC → PV' },
  { id: 'config', label: 'Pod → ConfigMap/Secret/ServiceAccount' },
  { id: 'rbac', label: 'RoleBinding → Role/subjects' },
  { id: 'events', label: 'Events' },
];

/** A related object, or a name that resolves to nothing (a subject user, a missing ConfigMap). */
export interface Related {
  readonly relation: Relation;
  readonly label: string;
  readonly target: StoredObject | { readonly kind: string; readonly name: string; readonly namespace?: string };
}

function record(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : {};
}

function list(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function named(
  store: ObjectStore,
  resourceKey: string,
  namespace: string | undefined,
  kind: string,
  name: string,
  relation: Relation,
  label: string,
): Related {
  return {
    relation,
    label,
    target: store.find(resourceKey, namespace, name) ?? { kind, name, ...(namespace === undefined ? {} : { namespace }) },
  };
}

function matchesSelector(selector: Record<string, unknown>, object: KubeObject): boolean {
  const labels = object.metadata.labels ?? {};
  const entries = Object.entries(selector);
  return entries.length > 0 && entries.every(([k, v]) => labels[k] === v);
}

/** Names a pod reads from: volumes, projected sources, env and envFrom. */
function podReferences(spec: Record<string, unknown>): { configMaps: Set<string>; secrets: Set<string>; claims: Set<string> } {
  const configMaps = new Set<string>();
  const secrets = new Set<string>();
  const claims = new Set<string>();
  for (const volume of list(spec.volumes)) {
    const cm = text(record(volume.configMap).name);
    if (cm !== undefined) configMaps.add(cm);
    const secret = text(record(volume.secret).secretName);
    if (secret !== undefined) secrets.add(secret);
    const claim = text(record(volume.persistentVolumeClaim).claimName);
    if (claim !== undefined) claims.add(claim);
    for (const source of list(record(volume.projected).sources)) {
      const pcm = text(record(source.configMap).name);
      if (pcm !== undefined) configMaps.add(pcm);
      const ps = text(record(source.secret).name);
      if (ps !== undefined) secrets.add(ps);
    }
  }
  for (const container of [...list(spec.initContainers), ...list(spec.containers)]) {
    for (const from of list(container.envFrom)) {
      const cm = text(record(from.configMapRef).name);
      if (cm !== undefined) configMaps.add(cm);
      const s = text(record(from.secretRef).name);
      if (s !== undefined) secrets.add(s);
    }
    for (const env of list(container.env)) {
      const valueFrom = record(env.valueFrom);
      const cm = text(record(valueFrom.configMapKeyRef).name);
      if (cm !== undefined) configMaps.add(cm);
      const s = text(record(valueFrom.secretKeyRef).name);
      if (s !== undefined) secrets.add(s);
    }
  }
  return { configMaps, secrets, claims };
}

/** The objects related to one object by the enabled relations. */
export function relatedTo(store: ObjectStore, stored: StoredObject, enabled: ReadonlySet<Relation>): Related[] {
  const out: Related[] = [];
  const { object, resource } = stored;
  const namespace = object.metadata.namespace;
  const spec = record((object as { spec?: unknown }).spec);
  if (enabled.has('events') && object.metadata.uid !== undefined) {
    for (const event of store.eventsOf(object.metadata.uid)) out.push({ relation: 'events', label: 'event', target: event });
  }
  if (resource.group === '' && resource.kind === 'Service' && enabled.has('selector')) {
    const selector = record(spec.selector);
    for (const candidate of store.all()) {
      if (
        candidate.resource.key === 'pods' &&
        candidate.object.metadata.namespace === namespace &&
        matchesSelector(selector, candidate.object)
      )
        out.push({ relation: 'selector', label: 'selects', target: candidate });
    }
  }
  if (resource.group === '' && resource.kind === 'Pod') {
    const nodeName = text(spec.nodeName);
    if (enabled.has('node') && nodeName !== undefined) out.push(named(store, 'nodes', undefined, 'Node', nodeName, 'node', 'runs on'));
    const refs = podReferences(spec);
    if (enabled.has('storage'))
      for (const c of refs.claims)
        out.push(named(store, 'persistentvolumeclaims', namespace, 'PersistentVolumeClaim', c, 'storage', 'mounts'));
    if (enabled.has('config')) {
      for (const c of refs.configMaps) out.push(named(store, 'configmaps', namespace, 'ConfigMap', c, 'config', 'reads'));
      for (const s of refs.secrets) out.push(named(store, 'secrets', namespace, 'Secret', s, 'config', 'reads'));
      const sa = text(spec.serviceAccountName);
      if (sa !== undefined) out.push(named(store, 'serviceaccounts', namespace, 'ServiceAccount', sa, 'config', 'runs as'));
    }
  }
  if (resource.group === '' && resource.kind === 'PersistentVolumeClaim' && enabled.has('storage')) {
    const volume = text(spec.volumeName);
    if (volume !== undefined) out.push(named(store, 'persistentvolumes', undefined, 'PersistentVolume', volume, 'storage', 'bound to'));
  }
  if (
    resource.group === 'rbac.authorization.k8s.io' &&
    (resource.kind === 'RoleBinding' || resource.kind === 'ClusterRoleBinding') &&
    enabled.has('rbac')
  ) {
    const roleRef = record((object as { roleRef?: unknown }).roleRef);
    const roleName = text(roleRef.name);
    if (roleName !== undefined) {
      const cluster = roleRef.kind === 'ClusterRole';
      out.push(
        named(
          store,
          cluster ? 'clusterroles.rbac.authorization.k8s.io' : 'roles.rbac.authorization.k8s.io',
          cluster ? undefined : namespace,
          cluster ? 'ClusterRole' : 'Role',
          roleName,
          'rbac',
          'grants',
        ),
      );
    }
    for (const subject of list((object as { subjects?: unknown }).subjects)) {
      const kind = text(subject.kind) ?? 'Subject';
      const name = text(subject.name) ?? '';
      if (kind === 'ServiceAccount')
        out.push(named(store, 'serviceaccounts', text(subject.namespace) ?? namespace, kind, name, 'rbac', 'to'));
      else out.push({ relation: 'rbac', label: 'to', target: { kind, name } });
    }
  }
  return out;
}
