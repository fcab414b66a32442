import type { ResourceInfo } from '../api/resource-info.js';
import { VALIDATING_ADMISSION_POLICY } from './admissionregistration-v1/validating-admission-policy.js';
import { VALIDATING_ADMISSION_POLICY_BINDING } from './admissionregistration-v1/validating-admission-policy-binding.js';
import { VALIDATING_ADMISSION_POLICY_TYPES } from './admissionregistration-v1/validating-admission-policy-types.js';
import { MUTATING_WEBHOOK_CONFIGURATION } from './admissionregistration-v1/mutating-webhook-configuration.js';
import { VALIDATING_WEBHOOK_CONFIGURATION } from './admissionregistration-v1/validating-webhook-configuration.js';
import { ADMISSIONREGISTRATION_V1_WEBHOOK_TYPES } from './admissionregistration-v1/webhook-types.js';
import { CUSTOM_RESOURCE_DEFINITION } from './apiextensions-v1/custom-resource-definition.js';
import { API_SERVICE } from './apiregistration-v1/api-service.js';
import { CONTROLLER_REVISION } from './apps-v1/controller-revision.js';
import { DAEMON_SET } from './apps-v1/daemon-set.js';
import { DEPLOYMENT } from './apps-v1/deployment.js';
import { REPLICA_SET } from './apps-v1/replica-set.js';
import { STATEFUL_SET } from './apps-v1/stateful-set.js';
import { SELF_SUBJECT_REVIEW } from './authentication-v1/self-subject-review.js';
import { TOKEN_REVIEW } from './authentication-v1/token-review.js';
import { AUTHENTICATION_V1_TYPES } from './authentication-v1/types.js';
import { LOCAL_SUBJECT_ACCESS_REVIEW } from './authorization-v1/local-subject-access-review.js';
import { SELF_SUBJECT_ACCESS_REVIEW } from './authorization-v1/self-subject-access-review.js';
import { SELF_SUBJECT_RULES_REVIEW } from './authorization-v1/self-subject-rules-review.js';
import { SUBJECT_ACCESS_REVIEW } from './authorization-v1/subject-access-review.js';
import { AUTHORIZATION_V1_TYPES } from './authorization-v1/types.js';
import { AUTOSCALING_V1_TYPES } from './autoscaling-v1/types.js';
import { HORIZONTAL_POD_AUTOSCALER_V1 } from './autoscaling-v1/horizontal-pod-autoscaler.js';
import { HORIZONTAL_POD_AUTOSCALER } from './autoscaling-v2/horizontal-pod-autoscaler.js';
import { CERTIFICATE_SIGNING_REQUEST } from './certificates-v1/certificate-signing-request.js';
import { CRON_JOB } from './batch-v1/cron-job.js';
import { JOB } from './batch-v1/job.js';
import { LEASE } from './coordination-v1/lease.js';
import { CONFIG_MAP } from './core-v1/config-map.js';
import { ENDPOINTS } from './core-v1/endpoints.js';
import { EVENT } from './core-v1/event.js';
import { LIMIT_RANGE } from './core-v1/limit-range.js';
import { NAMESPACE } from './core-v1/namespace.js';
import { NODE } from './core-v1/node.js';
import { PERSISTENT_VOLUME } from './core-v1/persistent-volume.js';
import { PERSISTENT_VOLUME_CLAIM } from './core-v1/persistent-volume-claim.js';
import { POD } from './core-v1/pod.js';
import { POD_TEMPLATE } from './core-v1/pod-template.js';
import { REPLICATION_CONTROLLER } from './core-v1/replication-controller.js';
import { RESOURCE_QUOTA } from './core-v1/resource-quota.js';
import { SECRET } from './core-v1/secret.js';
import { SERVICE } from './core-v1/service.js';
import { SERVICE_ACCOUNT } from './core-v1/service-account.js';
import { FLOW_SCHEMA } from './flowcontrol-v1/flow-schema.js';
import { PRIORITY_LEVEL_CONFIGURATION } from './flowcontrol-v1/priority-level-configuration.js';
import type { KindDefinition, TypeSet, VersionConversion } from './define/kind-definition.js';
import { TOKEN_REQUEST_TYPES } from './authentication-v1/token-request.js';
import { BINDING } from './core-v1/binding.js';
import { COMPONENT_STATUS } from './core-v1/component-status.js';
import { EVICTION_TYPES } from './policy-v1/eviction.js';
import { CORE_V1_SHARED_TYPES } from './core-v1/types/index.js';
import { ENDPOINT_SLICE } from './discovery-v1/endpoint-slice.js';
import { EVENTS_API_EVENT } from './events-v1/event.js';
import { META_DEFINITIONS } from './meta/definitions.js';
import { META_FIELD_NUMBERS } from './meta/field-numbers.js';
import { INGRESS } from './networking-v1/ingress.js';
import { INGRESS_CLASS } from './networking-v1/ingress-class.js';
import { NETWORK_POLICY } from './networking-v1/network-policy.js';
import { RUNTIME_CLASS } from './node-v1/runtime-class.js';
import { CLUSTER_ROLE } from './rbac-v1/cluster-role.js';
import { CLUSTER_ROLE_BINDING } from './rbac-v1/cluster-role-binding.js';
import { ROLE } from './rbac-v1/role.js';
import { ROLE_BINDING } from './rbac-v1/role-binding.js';
import { RBAC_V1_TYPES } from './rbac-v1/types.js';
import { POD_DISRUPTION_BUDGET } from './policy-v1/pod-disruption-budget.js';
import { PRIORITY_CLASS } from './scheduling-v1/priority-class.js';
import { CSI_DRIVER } from './storage-v1/csi-driver.js';
import { CSI_NODE } from './storage-v1/csi-node.js';
import { CSI_STORAGE_CAPACITY } from './storage-v1/csi-storage-capacity.js';
import { STORAGE_CLASS } from './storage-v1/storage-class.js';
import { VOLUME_ATTACHMENT } from './storage-v1/volume-attachment.js';

/**
 * The registration: every built-in kind Cascade serves, in the order discovery lists them within their group.
 * Adding a kind is its file in `<group>-<version>/` plus one line here (docs/architecture.md, "How to add a
 * built-in kind"); the catalog tables below and in this folder are derived from this list.
 */
export const BUILTIN_KINDS: readonly KindDefinition[] = [
  NAMESPACE,
  BINDING,
  COMPONENT_STATUS,
  CONFIG_MAP,
  ENDPOINTS,
  EVENT,
  LIMIT_RANGE,
  NODE,
  PERSISTENT_VOLUME_CLAIM,
  PERSISTENT_VOLUME,
  POD,
  POD_TEMPLATE,
  REPLICATION_CONTROLLER,
  RESOURCE_QUOTA,
  SECRET,
  SERVICE_ACCOUNT,
  SERVICE,
  API_SERVICE,
  CONTROLLER_REVISION,
  DAEMON_SET,
  DEPLOYMENT,
  REPLICA_SET,
  STATEFUL_SET,
  SELF_SUBJECT_REVIEW,
  TOKEN_REVIEW,
  LOCAL_SUBJECT_ACCESS_REVIEW,
  SELF_SUBJECT_ACCESS_REVIEW,
  SELF_SUBJECT_RULES_REVIEW,
  SUBJECT_ACCESS_REVIEW,
  HORIZONTAL_POD_AUTOSCALER,
  HORIZONTAL_POD_AUTOSCALER_V1,
  CRON_JOB,
  JOB,
  CERTIFICATE_SIGNING_REQUEST,
  LEASE,
  ENDPOINT_SLICE,
  EVENTS_API_EVENT,
  FLOW_SCHEMA,
  PRIORITY_LEVEL_CONFIGURATION,
  INGRESS_CLASS,
  INGRESS,
  NETWORK_POLICY,
  RUNTIME_CLASS,
  POD_DISRUPTION_BUDGET,
  CLUSTER_ROLE_BINDING,
  CLUSTER_ROLE,
  ROLE_BINDING,
  ROLE,
  PRIORITY_CLASS,
  CSI_DRIVER,
  CSI_NODE,
  CSI_STORAGE_CAPACITY,
  STORAGE_CLASS,
  VOLUME_ATTACHMENT,
  VALIDATING_ADMISSION_POLICY,
  VALIDATING_ADMISSION_POLICY_BINDING,
  CUSTOM_RESOURCE_DEFINITION,
  MUTATING_WEBHOOK_CONFIGURATION,
  VALIDATING_WEBHOOK_CONFIGURATION,
];

/**
 * Types that belong to no single kind: meta/v1 (ObjectMeta, Status, lists, watch events…), the core/v1 pod spec
 * tree and references, and each group's types its kinds share.
 */
export const SHARED_TYPES: readonly TypeSet[] = [
  { definitions: META_DEFINITIONS, fieldNumbers: META_FIELD_NUMBERS },
  ...CORE_V1_SHARED_TYPES,
  AUTOSCALING_V1_TYPES,
  AUTHENTICATION_V1_TYPES,
  TOKEN_REQUEST_TYPES,
  EVICTION_TYPES,
  AUTHORIZATION_V1_TYPES,
  RBAC_V1_TYPES,
  VALIDATING_ADMISSION_POLICY_TYPES,
  ADMISSIONREGISTRATION_V1_WEBHOOK_TYPES,
];

/** The built-in resources with the discovery facts Kubernetes v1.32 reports for them. */
export const BUILTIN_RESOURCES: readonly ResourceInfo[] = BUILTIN_KINDS.map((kind) => kind.resource);

/** Each kind at its storage version: the versions served by conversion borrow its strategy, selectors and printer. */
const BY_KIND: ReadonlyMap<string, KindDefinition> = new Map(
  BUILTIN_KINDS.filter((kind) => kind.conversion === undefined).map((kind) => [`${kind.resource.group}/${kind.resource.kind}`, kind]),
);

/** The built-in kind of this group ('' for core) and kind at its storage version, if Cascade serves one. */
export function builtinKind(group: string, kind: string): KindDefinition | undefined {
  return BY_KIND.get(`${group}/${kind}`);
}

/** How a served version converts to its storage version; undefined for a version that is stored as served. */
export function versionConversion(info: Pick<ResourceInfo, 'group' | 'version' | 'plural'>): VersionConversion | undefined {
  return BUILTIN_KINDS.find(
    (kind) => kind.resource.group === info.group && kind.resource.version === info.version && kind.resource.plural === info.plural,
  )?.conversion;
}
