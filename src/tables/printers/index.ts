import type { Printer } from '../printer.js';
import { API_SERVICE_PRINTER } from './api-service.js';
import {
  DAEMON_SET_PRINTER,
  DEPLOYMENT_PRINTER,
  REPLICA_SET_PRINTER,
  REPLICATION_CONTROLLER_PRINTER,
  STATEFUL_SET_PRINTER,
} from './apps.js';
import {
  CONFIG_MAP_PRINTER,
  ENDPOINTS_PRINTER,
  NAMESPACE_PRINTER,
  PERSISTENT_VOLUME_CLAIM_PRINTER,
  PERSISTENT_VOLUME_PRINTER,
  SECRET_PRINTER,
  SERVICE_ACCOUNT_PRINTER,
} from './core.js';
import { DEFAULT_PRINTER } from './default-convertor.js';
import { EVENT_PRINTER, EVENTS_API_EVENT_PRINTER } from './event.js';
import { JOB_PRINTER } from './job.js';
import { ENDPOINT_SLICE_PRINTER, LEASE_PRINTER } from './networking.js';
import { NODE_PRINTER } from './node.js';
import { POD_PRINTER } from './pod.js';
import { CLUSTER_ROLE_BINDING_PRINTER, ROLE_BINDING_PRINTER } from './rbac.js';
import { SERVICE_PRINTER } from './service.js';

/** Keyed "group/Kind" (core group empty). Kinds not listed use the DefaultTableConvertor. */
const PRINTERS: ReadonlyMap<string, Printer> = new Map([
  ['/Namespace', NAMESPACE_PRINTER],
  ['/ConfigMap', CONFIG_MAP_PRINTER],
  ['/Secret', SECRET_PRINTER],
  ['/ServiceAccount', SERVICE_ACCOUNT_PRINTER],
  ['/Pod', POD_PRINTER],
  ['/Service', SERVICE_PRINTER],
  ['/Endpoints', ENDPOINTS_PRINTER],
  ['/Event', EVENT_PRINTER],
  ['/PersistentVolumeClaim', PERSISTENT_VOLUME_CLAIM_PRINTER],
  ['/PersistentVolume', PERSISTENT_VOLUME_PRINTER],
  ['/Node', NODE_PRINTER],
  ['/ReplicationController', REPLICATION_CONTROLLER_PRINTER],
  ['apps/Deployment', DEPLOYMENT_PRINTER],
  ['apps/ReplicaSet', REPLICA_SET_PRINTER],
  ['apps/StatefulSet', STATEFUL_SET_PRINTER],
  ['apps/DaemonSet', DAEMON_SET_PRINTER],
  ['batch/Job', JOB_PRINTER],
  ['coordination.k8s.io/Lease', LEASE_PRINTER],
  ['discovery.k8s.io/EndpointSlice', ENDPOINT_SLICE_PRINTER],
  ['events.k8s.io/Event', EVENTS_API_EVENT_PRINTER],
  ['rbac.authorization.k8s.io/RoleBinding', ROLE_BINDING_PRINTER],
  ['rbac.authorization.k8s.io/ClusterRoleBinding', CLUSTER_ROLE_BINDING_PRINTER],
  ['apiregistration.k8s.io/APIService', API_SERVICE_PRINTER],
]);

export function printerFor(kind: string, group: string): Printer {
  return PRINTERS.get(`${group}/${kind}`) ?? DEFAULT_PRINTER;
}
