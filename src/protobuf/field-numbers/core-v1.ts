import type { FieldNumberTable } from './types.js';

export const CORE_V1_FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.core.v1.AttachedVolume': { tags: { name: 1, devicePath: 2 } },
  'io.k8s.api.core.v1.CSIPersistentVolumeSource': {
    tags: { driver: 1, volumeHandle: 2, readOnly: 3, fsType: 4, volumeAttributes: 5, controllerPublishSecretRef: 6, nodeStageSecretRef: 7, nodePublishSecretRef: 8, controllerExpandSecretRef: 9, nodeExpandSecretRef: 10 },
  },
  'io.k8s.api.core.v1.ClientIPConfig': { tags: { timeoutSeconds: 1 }, pointers: ['timeoutSeconds'] },
  'io.k8s.api.core.v1.ConfigMap': {
    tags: { metadata: 1, data: 2, binaryData: 3, immutable: 4 },
    pointers: ['immutable'],
  },
  'io.k8s.api.core.v1.ConfigMapList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.core.v1.ConfigMapNodeConfigSource': {
    tags: { namespace: 1, name: 2, uid: 3, resourceVersion: 4, kubeletConfigKey: 5 },
  },
  'io.k8s.api.core.v1.ContainerImage': { tags: { names: 1, sizeBytes: 2 } },
  'io.k8s.api.core.v1.DaemonEndpoint': { tags: { Port: 1 } },
  'io.k8s.api.core.v1.EndpointAddress': {
    tags: { ip: 1, targetRef: 2, hostname: 3, nodeName: 4 },
    pointers: ['nodeName'],
  },
  'io.k8s.api.core.v1.EndpointPort': {
    tags: { name: 1, port: 2, protocol: 3, appProtocol: 4 },
    pointers: ['appProtocol'],
  },
  'io.k8s.api.core.v1.EndpointSubset': { tags: { addresses: 1, notReadyAddresses: 2, ports: 3 } },
  'io.k8s.api.core.v1.Endpoints': { tags: { metadata: 1, subsets: 2 } },
  'io.k8s.api.core.v1.EndpointsList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.core.v1.Event': {
    tags: { metadata: 1, involvedObject: 2, reason: 3, message: 4, source: 5, firstTimestamp: 6, lastTimestamp: 7, count: 8, type: 9, eventTime: 10, series: 11, action: 12, related: 13, reportingComponent: 14, reportingInstance: 15 },
  },
  'io.k8s.api.core.v1.EventList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.core.v1.EventSeries': { tags: { count: 1, lastObservedTime: 2 } },
  'io.k8s.api.core.v1.EventSource': { tags: { component: 1, host: 2 } },
  'io.k8s.api.core.v1.LoadBalancerIngress': { tags: { ip: 1, hostname: 2, ipMode: 3, ports: 4 }, pointers: ['ipMode'] },
  'io.k8s.api.core.v1.LoadBalancerStatus': { tags: { ingress: 1 } },
  'io.k8s.api.core.v1.LocalVolumeSource': { tags: { path: 1, fsType: 2 }, pointers: ['fsType'] },
  'io.k8s.api.core.v1.ModifyVolumeStatus': { tags: { targetVolumeAttributesClassName: 1, status: 2 } },
  'io.k8s.api.core.v1.Namespace': { tags: { metadata: 1, spec: 2, status: 3 } },
  'io.k8s.api.core.v1.NamespaceCondition': {
    tags: { type: 1, status: 2, lastTransitionTime: 4, reason: 5, message: 6 },
  },
  'io.k8s.api.core.v1.NamespaceList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.core.v1.NamespaceSpec': { tags: { finalizers: 1 } },
  'io.k8s.api.core.v1.NamespaceStatus': { tags: { phase: 1, conditions: 2 } },
  'io.k8s.api.core.v1.Node': { tags: { metadata: 1, spec: 2, status: 3 } },
  'io.k8s.api.core.v1.NodeAddress': { tags: { type: 1, address: 2 } },
  'io.k8s.api.core.v1.NodeCondition': {
    tags: { type: 1, status: 2, lastHeartbeatTime: 3, lastTransitionTime: 4, reason: 5, message: 6 },
  },
  'io.k8s.api.core.v1.NodeConfigSource': { tags: { configMap: 2 } },
  'io.k8s.api.core.v1.NodeConfigStatus': { tags: { assigned: 1, active: 2, lastKnownGood: 3, error: 4 } },
  'io.k8s.api.core.v1.NodeDaemonEndpoints': { tags: { kubeletEndpoint: 1 } },
  'io.k8s.api.core.v1.NodeFeatures': { tags: { supplementalGroupsPolicy: 1 }, pointers: ['supplementalGroupsPolicy'] },
  'io.k8s.api.core.v1.NodeList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.core.v1.NodeRuntimeHandler': { tags: { name: 1, features: 2 } },
  'io.k8s.api.core.v1.NodeRuntimeHandlerFeatures': {
    tags: { recursiveReadOnlyMounts: 1, userNamespaces: 2 },
    pointers: ['recursiveReadOnlyMounts', 'userNamespaces'],
  },
  'io.k8s.api.core.v1.NodeSpec': {
    tags: { podCIDR: 1, externalID: 2, providerID: 3, unschedulable: 4, taints: 5, configSource: 6, podCIDRs: 7 },
  },
  'io.k8s.api.core.v1.NodeStatus': {
    tags: { capacity: 1, allocatable: 2, phase: 3, conditions: 4, addresses: 5, daemonEndpoints: 6, nodeInfo: 7, images: 8, volumesInUse: 9, volumesAttached: 10, config: 11, runtimeHandlers: 12, features: 13 },
  },
  'io.k8s.api.core.v1.NodeSystemInfo': {
    tags: { machineID: 1, systemUUID: 2, bootID: 3, kernelVersion: 4, osImage: 5, containerRuntimeVersion: 6, kubeletVersion: 7, kubeProxyVersion: 8, operatingSystem: 9, architecture: 10 },
  },
  'io.k8s.api.core.v1.ObjectReference': {
    tags: { kind: 1, namespace: 2, name: 3, uid: 4, apiVersion: 5, resourceVersion: 6, fieldPath: 7 },
  },
  'io.k8s.api.core.v1.PersistentVolume': { tags: { metadata: 1, spec: 2, status: 3 } },
  'io.k8s.api.core.v1.PersistentVolumeClaim': { tags: { metadata: 1, spec: 2, status: 3 } },
  'io.k8s.api.core.v1.PersistentVolumeClaimCondition': {
    tags: { type: 1, status: 2, lastProbeTime: 3, lastTransitionTime: 4, reason: 5, message: 6 },
  },
  'io.k8s.api.core.v1.PersistentVolumeClaimList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec': {
    tags: { accessModes: 1, resources: 2, volumeName: 3, selector: 4, storageClassName: 5, volumeMode: 6, dataSource: 7, dataSourceRef: 8, volumeAttributesClassName: 9 },
    pointers: ['storageClassName', 'volumeMode', 'volumeAttributesClassName'],
  },
  'io.k8s.api.core.v1.PersistentVolumeClaimStatus': {
    tags: { phase: 1, accessModes: 2, capacity: 3, conditions: 4, allocatedResources: 5, allocatedResourceStatuses: 7, currentVolumeAttributesClassName: 8, modifyVolumeStatus: 9 },
    pointers: ['currentVolumeAttributesClassName'],
  },
  'io.k8s.api.core.v1.PersistentVolumeList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.core.v1.PersistentVolumeSource': { tags: { hostPath: 3, nfs: 5, local: 20, csi: 22 } },
  'io.k8s.api.core.v1.PersistentVolumeSpec': {
    tags: { capacity: 1, accessModes: 3, claimRef: 4, persistentVolumeReclaimPolicy: 5, storageClassName: 6, mountOptions: 7, volumeMode: 8, nodeAffinity: 9, volumeAttributesClassName: 10 },
    pointers: ['volumeMode', 'volumeAttributesClassName'],
    inline: { 2: 'io.k8s.api.core.v1.PersistentVolumeSource' },
  },
  'io.k8s.api.core.v1.PersistentVolumeStatus': {
    tags: { phase: 1, message: 2, reason: 3, lastPhaseTransitionTime: 4 },
  },
  'io.k8s.api.core.v1.PortStatus': { tags: { port: 1, protocol: 2, error: 3 }, pointers: ['error'] },
  'io.k8s.api.core.v1.Secret': {
    tags: { metadata: 1, data: 2, type: 3, stringData: 4, immutable: 5 },
    pointers: ['immutable'],
  },
  'io.k8s.api.core.v1.SecretList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.core.v1.SecretReference': { tags: { name: 1, namespace: 2 } },
  'io.k8s.api.core.v1.Service': { tags: { metadata: 1, spec: 2, status: 3 } },
  'io.k8s.api.core.v1.ServiceAccount': {
    tags: { metadata: 1, secrets: 2, imagePullSecrets: 3, automountServiceAccountToken: 4 },
    pointers: ['automountServiceAccountToken'],
  },
  'io.k8s.api.core.v1.ServiceAccountList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.core.v1.ServiceList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.core.v1.ServicePort': {
    tags: { name: 1, protocol: 2, port: 3, targetPort: 4, nodePort: 5, appProtocol: 6 },
    pointers: ['appProtocol'],
  },
  'io.k8s.api.core.v1.ServiceSpec': {
    tags: { ports: 1, selector: 2, clusterIP: 3, type: 4, externalIPs: 5, sessionAffinity: 7, loadBalancerIP: 8, loadBalancerSourceRanges: 9, externalName: 10, externalTrafficPolicy: 11, healthCheckNodePort: 12, publishNotReadyAddresses: 13, sessionAffinityConfig: 14, ipFamilyPolicy: 17, clusterIPs: 18, ipFamilies: 19, allocateLoadBalancerNodePorts: 20, loadBalancerClass: 21, internalTrafficPolicy: 22, trafficDistribution: 23 },
    pointers: ['ipFamilyPolicy', 'allocateLoadBalancerNodePorts', 'loadBalancerClass', 'internalTrafficPolicy', 'trafficDistribution'],
  },
  'io.k8s.api.core.v1.ServiceStatus': { tags: { loadBalancer: 1, conditions: 2 } },
  'io.k8s.api.core.v1.SessionAffinityConfig': { tags: { clientIP: 1 } },
  'io.k8s.api.core.v1.Taint': { tags: { key: 1, value: 2, effect: 3, timeAdded: 4 } },
  'io.k8s.api.core.v1.TypedLocalObjectReference': { tags: { apiGroup: 1, kind: 2, name: 3 }, pointers: ['apiGroup'] },
  'io.k8s.api.core.v1.TypedObjectReference': {
    tags: { apiGroup: 1, kind: 2, name: 3, namespace: 4 },
    pointers: ['apiGroup', 'namespace'],
  },
  'io.k8s.api.core.v1.VolumeNodeAffinity': { tags: { required: 1 } },
  'io.k8s.api.core.v1.VolumeResourceRequirements': { tags: { limits: 1, requests: 2 } },
};
