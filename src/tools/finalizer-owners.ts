import { FINALIZER_FOREGROUND, FINALIZER_KUBERNETES, FINALIZER_ORPHAN } from '../api/finalizers.js';

/** Where the component that removes a finalizer runs. */
export type ComponentHome = 'kube-apiserver' | 'kube-controller-manager' | 'cloud-controller-manager' | 'csi-sidecar' | 'operator';

export interface FinalizerOwner {
  /** The component expected to remove the finalizer, e.g. "garbage collector". */
  readonly component: string;
  readonly home: ComponentHome;
  /** Whether a Cascade server runs that component itself. */
  readonly inCascade: boolean;
  /** What the component waits for before it removes the finalizer. */
  readonly removedWhen: string;
}

interface OwnerRule {
  readonly matches: (finalizer: string) => boolean;
  readonly owner: FinalizerOwner;
}

const exactly =
  (name: string) =>
  (finalizer: string): boolean =>
    finalizer === name;
const prefixed =
  (prefix: string) =>
  (finalizer: string): boolean =>
    finalizer.startsWith(prefix);
/** The domain part before the slash ends with this suffix ("*.cluster.x-k8s.io/…"). */
const domainSuffix =
  (suffix: string) =>
  (finalizer: string): boolean => {
    const domain = finalizer.split('/')[0] ?? '';
    return domain === suffix.slice(1) || domain.endsWith(suffix);
  };

/**
 * Finalizers whose remover is known. Kubernetes' own come from its source; the operators' are the names their
 * projects document. Anything else is reported as unknown rather than guessed.
 */
const RULES: readonly OwnerRule[] = [
  {
    matches: exactly(FINALIZER_KUBERNETES),
    owner: { component: 'namespace controller', home: 'kube-controller-manager', inCascade: true, removedWhen: 'every object in the namespace is gone (R5.19)' },
  },
  {
    matches: exactly(FINALIZER_FOREGROUND),
    owner: { component: 'garbage collector', home: 'kube-controller-manager', inCascade: true, removedWhen: 'no dependent with blockOwnerDeletion=true remains (R4.31)' },
  },
  {
    matches: exactly(FINALIZER_ORPHAN),
    owner: { component: 'garbage collector', home: 'kube-controller-manager', inCascade: true, removedWhen: 'the reference to this object is removed from every dependent (R4.34, R4.35)' },
  },
  {
    matches: exactly('customresourcecleanup.apiextensions.k8s.io'),
    owner: { component: 'apiextensions server (CRD finalizer)', home: 'kube-apiserver', inCascade: true, removedWhen: 'every instance of the custom resource is deleted' },
  },
  {
    matches: exactly('kubernetes.io/pvc-protection'),
    owner: { component: 'PVC protection controller', home: 'kube-controller-manager', inCascade: false, removedWhen: 'no scheduled pod uses the claim (R6.5)' },
  },
  {
    matches: exactly('kubernetes.io/pv-protection'),
    owner: { component: 'PV protection controller', home: 'kube-controller-manager', inCascade: false, removedWhen: 'the volume is no longer Bound (R6.8)' },
  },
  {
    matches: exactly('batch.kubernetes.io/job-tracking'),
    owner: { component: 'Job controller', home: 'kube-controller-manager', inCascade: false, removedWhen: 'the Job controller has counted the pod in the Job status' },
  },
  {
    matches: exactly('service.kubernetes.io/load-balancer-cleanup'),
    owner: { component: 'service controller', home: 'cloud-controller-manager', inCascade: false, removedWhen: "the cloud provider's load balancer is deleted" },
  },
  {
    matches: exactly('external-provisioner.volume.kubernetes.io/finalizer'),
    owner: { component: 'CSI external-provisioner', home: 'csi-sidecar', inCascade: false, removedWhen: 'the backing volume is deleted' },
  },
  {
    matches: prefixed('external-attacher/'),
    owner: { component: 'CSI external-attacher', home: 'csi-sidecar', inCascade: false, removedWhen: 'the volume is detached' },
  },
  {
    matches: prefixed('snapshot.storage.kubernetes.io/'),
    owner: { component: 'CSI snapshot controller', home: 'csi-sidecar', inCascade: false, removedWhen: 'the snapshot is no longer in use or its content is deleted' },
  },
  {
    matches: (f) => f === 'resources-finalizer.argocd.argoproj.io' || f.startsWith('resources-finalizer.argocd.argoproj.io/') || f === 'post-delete-finalizer.argocd.argoproj.io',
    owner: { component: 'Argo CD application controller', home: 'operator', inCascade: false, removedWhen: "the application's managed resources are deleted" },
  },
  {
    matches: exactly('finalizers.fluxcd.io'),
    owner: { component: 'Flux controllers', home: 'operator', inCascade: false, removedWhen: 'the Flux object has been cleaned up by its controller' },
  },
  {
    matches: domainSuffix('.cluster.x-k8s.io'),
    owner: { component: 'Cluster API controllers', home: 'operator', inCascade: false, removedWhen: 'the infrastructure behind the object is released' },
  },
];

/** The component expected to remove a finalizer, or undefined when nothing known handles it. */
export function finalizerOwner(finalizer: string): FinalizerOwner | undefined {
  return RULES.find((rule) => rule.matches(finalizer))?.owner;
}
