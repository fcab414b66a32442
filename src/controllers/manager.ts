import type { ControllerName } from '../auth/rbac/bootstrap/identities.js';
import type { ApiClient } from '../client/interface.js';
import { CsrSigningController } from './csr-signing/controller.js';
import { ClusterRoleAggregationController } from './clusterrole-aggregation/controller.js';
import { GarbageCollector } from './garbage-collector/controller.js';
import { ACKNOWLEDGING_KINDS } from './garbage-collector/orphan-acknowledgement.js';
import { NamespaceController } from './namespace/controller.js';
import { SimulatedKubelets } from './nodes/kubelet.js';
import { NodeSimulator } from './nodes/node-simulator.js';
import { PodGarbageCollector } from './podgc/controller.js';
import { Scheduler } from './scheduler/scheduler.js';
import { ServiceAccountController } from './serviceaccount/controller.js';
import { RootCaPublisher } from './root-ca-publisher/controller.js';
import { DeploymentController } from './deployment/controller.js';
import { DaemonSetController } from './daemonset/controller.js';
import { JobController } from './job/controller.js';
import type { BackoffSettings } from './job/backoff.js';
import { CronJobController } from './cronjob/controller.js';
import { TtlAfterFinishedController } from './ttl-after-finished/controller.js';
import { ReplicaSetController } from './replicaset/controller.js';
import { StatefulSetController } from './statefulset/controller.js';
import { REPLICA_SET, REPLICATION_CONTROLLER } from './replicaset/kinds.js';
import type { ProtectionMetrics } from './protection/metrics.js';
import { ProtectionRuleController } from './protection/protection-rule-controller.js';
import { PvProtectionController } from './protection/pv-protection-controller.js';
import { PvcProtectionController } from './protection/pvc-protection-controller.js';
import { ValidatingAdmissionPolicyStatusController } from './validating-admission-policy-status/controller.js';
import { HorizontalPodAutoscalerController } from './podautoscaler/controller.js';
import { ResourceQuotaController } from './resourcequota/controller.js';
import { DisruptionController } from './disruption/controller.js';
import { EndpointsController } from './endpoint/controller.js';
import { EndpointSliceController } from './endpointslice/controller.js';

export interface ControllerManagerOptions {
  /** A client acting as the given controller's service account, so each controller has only its own permissions. */
  readonly clientFor: (controller: ControllerName) => ApiClient;
  /** The server's own client, for what kube-apiserver rather than a controller does (recreating system namespaces). */
  readonly systemClient?: ApiClient;
  /** Keep aggregated ClusterRoles (admin, edit, view, …) the union of the roles they select (default true). */
  readonly clusterRoleAggregation?: boolean;
  /** --enable-garbage-collector (default true). */
  readonly garbageCollector?: boolean;
  /** --concurrent-gc-syncs (default 20). */
  readonly gcWorkers?: number;
  /** --strict-block-owner-deletion (default false: Kubernetes' behaviour, debt D1). */
  readonly strictBlockOwnerDeletion?: boolean;
  /** --orphan-waits-for-observed-generation (default true: extension A, R12.165). */
  readonly orphanWaitsForObservedGeneration?: boolean;
  /** --orphan-observed-generation-timeout (default 30 s, R12.170). */
  readonly orphanObservedGenerationTimeoutMs?: number;
  /** --propagate-grace-period (default false: extension B, R12.172); the registry adds the finalizer it removes. */
  readonly propagateGracePeriod?: boolean;
  /** Run the namespace controller (default true). */
  readonly namespaceController?: boolean;
  /** --concurrent-namespace-syncs (default 10). */
  readonly namespaceWorkers?: number;
  /** Run the PVC and PV protection controllers (default true). */
  readonly volumeProtection?: boolean;
  /** --pvc-protection-count-finished-pods (default true: Kubernetes' behaviour, debt D15). */
  readonly pvcProtectionCountFinishedPods?: boolean;
  /** Run the controllers of ProtectionRules (default true). */
  readonly protectionRules?: boolean;
  /** Keep a `default` ServiceAccount in every namespace (default true). */
  readonly serviceAccounts?: boolean;
  /** The cluster CA (PEM) to publish as the `kube-root-ca.crt` ConfigMap in every namespace; none without TLS. */
  readonly rootCa?: string;
  /** The cluster CA's certificate and key (PEM) that approved CertificateSigningRequests are signed with; none without TLS. */
  readonly signingCa?: { readonly cert: string; readonly key: string };
  /** Run the ReplicaSet controller (default true; kube name `replicaset`). */
  readonly replicaSetController?: boolean;
  /** Run the ReplicationController controller (default true; kube name `replicationcontroller`). */
  readonly replicationController?: boolean;
  /** Run the Deployment controller (default true; kube name `deployment`). */
  readonly deploymentController?: boolean;
  /** Run the StatefulSet controller (default true; kube name `statefulset`). */
  readonly statefulSetController?: boolean;
  /** Run the DaemonSet controller (default true; kube name `daemonset`). */
  readonly daemonSetController?: boolean;
  /** Run the Job controller (default true; kube name `job`). */
  readonly jobController?: boolean;
  /** The Job controller's pod failure back-off (default 10 s doubling to 10 minutes); tests shorten it. */
  readonly jobBackoff?: BackoffSettings;
  /** Run the CronJob controller (default true; kube name `cronjob`). */
  readonly cronJobController?: boolean;
  /** Run the TTL-after-finished controller (default true; kube name `ttl-after-finished`). */
  readonly ttlAfterFinishedController?: boolean;
  /** Record each ValidatingAdmissionPolicy's observed generation in its status (default true). */
  readonly validatingAdmissionPolicyStatus?: boolean;
  /** Run the HPA controller (default true; kube name `horizontalpodautoscaling`). */
  readonly horizontalPodAutoscalerController?: boolean;
  /** --horizontal-pod-autoscaler-sync-period (default 15 s). */
  readonly hpaSyncPeriodMs?: number;
  /** Run the resource quota controller (default true; kube name `resourcequota`). */
  readonly resourceQuotaController?: boolean;
  /** --resource-quota-sync-period (default 5 min). */
  readonly resourceQuotaSyncPeriodMs?: number;
  /** Run the disruption controller (default true; kube name `disruption`). */
  readonly disruptionController?: boolean;
  /** Run the Endpoints controller (default true; kube name `endpoint`). */
  readonly endpointsController?: boolean;
  /** Run the EndpointSlice controller (default true; kube name `endpointslice`). */
  readonly endpointSliceController?: boolean;
  /** --max-endpoints-per-slice (default 100). */
  readonly maxEndpointsPerSlice?: number;
  /** --simulate-nodes: Nodes created and driven by simulated kubelets, with the scheduler and pod GC (default 0: none). */
  readonly simulateNodes?: number;
  readonly log?: (message: string) => void;
}

/** The controllers running next to the API server (kube-controller-manager's role), each using only the client. */
export class ControllerManager {
  readonly garbageCollector: GarbageCollector | undefined;
  readonly namespaceController: NamespaceController | undefined;
  readonly pvcProtection: PvcProtectionController | undefined;
  readonly pvProtection: PvProtectionController | undefined;
  readonly protectionRules: ProtectionRuleController | undefined;
  readonly serviceAccounts: ServiceAccountController | undefined;
  readonly rootCaPublisher: RootCaPublisher | undefined;
  readonly clusterRoleAggregation: ClusterRoleAggregationController | undefined;
  readonly csrSigning: CsrSigningController | undefined;
  readonly replicaSets: ReplicaSetController | undefined;
  readonly replicationControllers: ReplicaSetController | undefined;
  readonly deployments: DeploymentController | undefined;
  readonly statefulSets: StatefulSetController | undefined;
  readonly daemonSets: DaemonSetController | undefined;
  readonly jobs: JobController | undefined;
  readonly cronJobs: CronJobController | undefined;
  readonly ttlAfterFinished: TtlAfterFinishedController | undefined;
  readonly horizontalPodAutoscalers: HorizontalPodAutoscalerController | undefined;
  readonly resourceQuotas: ResourceQuotaController | undefined;
  readonly disruption: DisruptionController | undefined;
  readonly endpoints: EndpointsController | undefined;
  readonly endpointSlices: EndpointSliceController | undefined;
  readonly nodeSimulator: NodeSimulator | undefined;
  readonly kubelets: SimulatedKubelets | undefined;
  readonly scheduler: Scheduler | undefined;
  readonly podGc: PodGarbageCollector | undefined;
  readonly policyStatus: ValidatingAdmissionPolicyStatusController | undefined;

  constructor(options: ControllerManagerOptions) {
    const clientFor = options.clientFor;
    const acknowledging: Record<(typeof ACKNOWLEDGING_KINDS)[number], boolean | undefined> = {
      'apps/v1/Deployment': options.deploymentController,
      'apps/v1/ReplicaSet': options.replicaSetController,
      'apps/v1/StatefulSet': options.statefulSetController,
      'apps/v1/DaemonSet': options.daemonSetController,
      'v1/ReplicationController': options.replicationController,
    };
    this.garbageCollector =
      options.garbageCollector === false
        ? undefined
        : new GarbageCollector({
            client: clientFor('garbageCollector'),
            workers: options.gcWorkers,
            strictBlockOwnerDeletion: options.strictBlockOwnerDeletion,
            propagateGracePeriod: options.propagateGracePeriod,
            orphanAcknowledgement:
              options.orphanWaitsForObservedGeneration === false
                ? undefined
                : {
                    controlledKinds: ACKNOWLEDGING_KINDS.filter((kind) => acknowledging[kind] !== false),
                    timeoutMs: options.orphanObservedGenerationTimeoutMs,
                  },
            log: options.log,
          });
    this.namespaceController =
      options.namespaceController === false
        ? undefined
        : new NamespaceController({
            client: clientFor('namespaceController'),
            systemClient: options.systemClient,
            workers: options.namespaceWorkers,
            log: options.log,
          });
    const volumes = options.volumeProtection !== false;
    this.pvcProtection = volumes
      ? new PvcProtectionController({
          client: clientFor('pvcProtection'),
          countFinishedPods: options.pvcProtectionCountFinishedPods,
          log: options.log,
        })
      : undefined;
    this.pvProtection = volumes ? new PvProtectionController({ client: clientFor('pvProtection'), log: options.log }) : undefined;
    this.protectionRules =
      options.protectionRules === false
        ? undefined
        : new ProtectionRuleController({ client: clientFor('protectionRules'), log: options.log });
    this.serviceAccounts =
      options.serviceAccounts === false ? undefined : new ServiceAccountController(clientFor('serviceAccounts'), options.log);
    this.rootCaPublisher =
      options.rootCa === undefined ? undefined : new RootCaPublisher(clientFor('rootCaPublisher'), options.rootCa, options.log);
    this.csrSigning =
      options.signingCa === undefined ? undefined : new CsrSigningController(clientFor('csrSigning'), options.signingCa, options.log);
    this.clusterRoleAggregation =
      options.clusterRoleAggregation === false
        ? undefined
        : new ClusterRoleAggregationController({ client: clientFor('clusterRoleAggregation'), log: options.log });
    this.replicaSets =
      options.replicaSetController === false
        ? undefined
        : new ReplicaSetController({ client: clientFor('replicaSet'), kind: REPLICA_SET, log: options.log });
    this.replicationControllers =
      options.replicationController === false
        ? undefined
        : new ReplicaSetController({ client: clientFor('replicationController'), kind: REPLICATION_CONTROLLER, log: options.log });
    this.deployments =
      options.deploymentController === false ? undefined : new DeploymentController({ client: clientFor('deployment'), log: options.log });
    this.statefulSets =
      options.statefulSetController === false
        ? undefined
        : new StatefulSetController({ client: clientFor('statefulSet'), log: options.log });
    this.daemonSets =
      options.daemonSetController === false ? undefined : new DaemonSetController({ client: clientFor('daemonSet'), log: options.log });
    this.jobs =
      options.jobController === false
        ? undefined
        : new JobController({ client: clientFor('job'), backoff: options.jobBackoff, log: options.log });
    this.cronJobs =
      options.cronJobController === false ? undefined : new CronJobController({ client: clientFor('cronJob'), log: options.log });
    this.ttlAfterFinished =
      options.ttlAfterFinishedController === false
        ? undefined
        : new TtlAfterFinishedController({ client: clientFor('ttlAfterFinished'), log: options.log });
    this.horizontalPodAutoscalers =
      options.horizontalPodAutoscalerController === false
        ? undefined
        : new HorizontalPodAutoscalerController({
            client: clientFor('horizontalPodAutoscaler'),
            syncPeriodMs: options.hpaSyncPeriodMs,
            log: options.log,
          });
    this.resourceQuotas =
      options.resourceQuotaController === false
        ? undefined
        : new ResourceQuotaController({
            client: clientFor('resourceQuota'),
            resyncMs: options.resourceQuotaSyncPeriodMs,
            log: options.log,
          });
    this.disruption =
      options.disruptionController === false ? undefined : new DisruptionController({ client: clientFor('disruption'), log: options.log });
    this.endpoints =
      options.endpointsController === false ? undefined : new EndpointsController({ client: clientFor('endpoints'), log: options.log });
    this.endpointSlices =
      options.endpointSliceController === false
        ? undefined
        : new EndpointSliceController({
            client: clientFor('endpointSlice'),
            maxEndpointsPerSlice: options.maxEndpointsPerSlice,
            log: options.log,
          });
    this.nodeSimulator =
      options.simulateNodes === undefined
        ? undefined
        : new NodeSimulator({ client: clientFor('nodeSimulator'), count: options.simulateNodes, log: options.log });
    this.kubelets =
      this.nodeSimulator === undefined
        ? undefined
        : new SimulatedKubelets({ client: clientFor('nodeSimulator'), nodes: this.nodeSimulator, log: options.log });
    const simulating = this.nodeSimulator !== undefined;
    this.scheduler = simulating ? new Scheduler({ client: clientFor('scheduler'), log: options.log }) : undefined;
    this.podGc = simulating ? new PodGarbageCollector({ client: clientFor('podGarbageCollector'), log: options.log }) : undefined;
    this.policyStatus =
      options.validatingAdmissionPolicyStatus === false
        ? undefined
        : new ValidatingAdmissionPolicyStatusController(clientFor('validatingAdmissionPolicyStatus'), options.log);
  }

  /** Counters of every in-use protection controller (PVC, PV, one per ProtectionRule). */
  protectionMetrics(): ProtectionMetrics[] {
    return [this.pvcProtection?.metrics, this.pvProtection?.metrics, ...(this.protectionRules?.metrics() ?? [])].filter(
      (m): m is ProtectionMetrics => m !== undefined,
    );
  }

  async start(): Promise<void> {
    await Promise.all([
      this.garbageCollector?.start(),
      this.namespaceController?.start(),
      this.pvcProtection?.start(),
      this.pvProtection?.start(),
      this.protectionRules?.start(),
      this.serviceAccounts?.start(),
      this.rootCaPublisher?.start(),
      this.csrSigning?.start(),
      this.clusterRoleAggregation?.start(),
      this.replicaSets?.start(),
      this.replicationControllers?.start(),
      this.deployments?.start(),
      this.statefulSets?.start(),
      this.daemonSets?.start(),
      this.jobs?.start(),
      this.cronJobs?.start(),
      this.ttlAfterFinished?.start(),
      this.horizontalPodAutoscalers?.start(),
      this.resourceQuotas?.start(),
      this.disruption?.start(),
      this.endpoints?.start(),
      this.endpointSlices?.start(),
      this.nodeSimulator?.start(),
      this.kubelets?.start(),
      this.scheduler?.start(),
      this.podGc?.start(),
      this.policyStatus?.start(),
    ]);
  }

  async stop(): Promise<void> {
    await Promise.all([
      this.garbageCollector?.stop(),
      this.namespaceController?.stop(),
      this.pvcProtection?.stop(),
      this.pvProtection?.stop(),
      this.protectionRules?.stop(),
      this.serviceAccounts?.stop(),
      this.rootCaPublisher?.stop(),
      this.csrSigning?.stop(),
      this.clusterRoleAggregation?.stop(),
      this.replicaSets?.stop(),
      this.replicationControllers?.stop(),
      this.deployments?.stop(),
      this.statefulSets?.stop(),
      this.daemonSets?.stop(),
      this.jobs?.stop(),
      this.cronJobs?.stop(),
      this.ttlAfterFinished?.stop(),
      this.horizontalPodAutoscalers?.stop(),
      this.resourceQuotas?.stop(),
      this.disruption?.stop(),
      this.endpoints?.stop(),
      this.endpointSlices?.stop(),
      this.scheduler?.stop(),
      this.kubelets?.stop(),
      this.nodeSimulator?.stop(),
      this.podGc?.stop(),
      this.policyStatus?.stop(),
    ]);
  }
}
