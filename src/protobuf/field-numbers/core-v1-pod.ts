import type { FieldNumberTable } from './types.js';

export const CORE_V1_POD_FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.core.v1.Affinity': { tags: { nodeAffinity: 1, podAffinity: 2, podAntiAffinity: 3 } },
  'io.k8s.api.core.v1.AppArmorProfile': { tags: { type: 1, localhostProfile: 2 }, pointers: ['localhostProfile'] },
  'io.k8s.api.core.v1.CSIVolumeSource': {
    tags: { driver: 1, readOnly: 2, fsType: 3, volumeAttributes: 4, nodePublishSecretRef: 5 },
    pointers: ['readOnly', 'fsType'],
  },
  'io.k8s.api.core.v1.Capabilities': { tags: { add: 1, drop: 2 } },
  'io.k8s.api.core.v1.ClusterTrustBundleProjection': {
    tags: { name: 1, signerName: 2, labelSelector: 3, path: 4, optional: 5 },
    pointers: ['name', 'signerName', 'optional'],
  },
  'io.k8s.api.core.v1.ConfigMapEnvSource': {
    tags: { optional: 2 },
    pointers: ['optional'],
    inline: { 1: 'io.k8s.api.core.v1.LocalObjectReference' },
  },
  'io.k8s.api.core.v1.ConfigMapKeySelector': {
    tags: { key: 2, optional: 3 },
    pointers: ['optional'],
    inline: { 1: 'io.k8s.api.core.v1.LocalObjectReference' },
  },
  'io.k8s.api.core.v1.ConfigMapProjection': {
    tags: { items: 2, optional: 4 },
    pointers: ['optional'],
    inline: { 1: 'io.k8s.api.core.v1.LocalObjectReference' },
  },
  'io.k8s.api.core.v1.ConfigMapVolumeSource': {
    tags: { items: 2, defaultMode: 3, optional: 4 },
    pointers: ['defaultMode', 'optional'],
    inline: { 1: 'io.k8s.api.core.v1.LocalObjectReference' },
  },
  'io.k8s.api.core.v1.Container': {
    tags: { name: 1, image: 2, command: 3, args: 4, workingDir: 5, ports: 6, env: 7, resources: 8, volumeMounts: 9, livenessProbe: 10, readinessProbe: 11, lifecycle: 12, terminationMessagePath: 13, imagePullPolicy: 14, securityContext: 15, stdin: 16, stdinOnce: 17, tty: 18, envFrom: 19, terminationMessagePolicy: 20, volumeDevices: 21, startupProbe: 22, resizePolicy: 23, restartPolicy: 24 },
    pointers: ['restartPolicy'],
  },
  'io.k8s.api.core.v1.ContainerPort': { tags: { name: 1, hostPort: 2, containerPort: 3, protocol: 4, hostIP: 5 } },
  'io.k8s.api.core.v1.ContainerResizePolicy': { tags: { resourceName: 1, restartPolicy: 2 } },
  'io.k8s.api.core.v1.ContainerState': { tags: { waiting: 1, running: 2, terminated: 3 } },
  'io.k8s.api.core.v1.ContainerStateRunning': { tags: { startedAt: 1 } },
  'io.k8s.api.core.v1.ContainerStateTerminated': {
    tags: { exitCode: 1, signal: 2, reason: 3, message: 4, startedAt: 5, finishedAt: 6, containerID: 7 },
  },
  'io.k8s.api.core.v1.ContainerStateWaiting': { tags: { reason: 1, message: 2 } },
  'io.k8s.api.core.v1.ContainerStatus': {
    tags: { name: 1, state: 2, lastState: 3, ready: 4, restartCount: 5, image: 6, imageID: 7, containerID: 8, started: 9, allocatedResources: 10, resources: 11, volumeMounts: 12, user: 13 },
    pointers: ['started'],
  },
  'io.k8s.api.core.v1.ContainerUser': { tags: { linux: 1 } },
  'io.k8s.api.core.v1.DownwardAPIProjection': { tags: { items: 1 } },
  'io.k8s.api.core.v1.DownwardAPIVolumeFile': {
    tags: { path: 1, fieldRef: 2, resourceFieldRef: 3, mode: 4 },
    pointers: ['mode'],
  },
  'io.k8s.api.core.v1.DownwardAPIVolumeSource': { tags: { items: 1, defaultMode: 2 }, pointers: ['defaultMode'] },
  'io.k8s.api.core.v1.EmptyDirVolumeSource': { tags: { medium: 1, sizeLimit: 2 } },
  'io.k8s.api.core.v1.EnvFromSource': { tags: { prefix: 1, configMapRef: 2, secretRef: 3 } },
  'io.k8s.api.core.v1.EnvVar': { tags: { name: 1, value: 2, valueFrom: 3 } },
  'io.k8s.api.core.v1.EnvVarSource': {
    tags: { fieldRef: 1, resourceFieldRef: 2, configMapKeyRef: 3, secretKeyRef: 4 },
  },
  'io.k8s.api.core.v1.EphemeralContainer': {
    tags: { targetContainerName: 2 },
    inline: { 1: 'io.k8s.api.core.v1.EphemeralContainerCommon' },
  },
  'io.k8s.api.core.v1.EphemeralContainerCommon': {
    tags: { name: 1, image: 2, command: 3, args: 4, workingDir: 5, ports: 6, env: 7, resources: 8, volumeMounts: 9, livenessProbe: 10, readinessProbe: 11, lifecycle: 12, terminationMessagePath: 13, imagePullPolicy: 14, securityContext: 15, stdin: 16, stdinOnce: 17, tty: 18, envFrom: 19, terminationMessagePolicy: 20, volumeDevices: 21, startupProbe: 22, resizePolicy: 23, restartPolicy: 24 },
    pointers: ['restartPolicy'],
  },
  'io.k8s.api.core.v1.EphemeralVolumeSource': { tags: { volumeClaimTemplate: 1 } },
  'io.k8s.api.core.v1.ExecAction': { tags: { command: 1 } },
  'io.k8s.api.core.v1.GRPCAction': { tags: { port: 1, service: 2 }, pointers: ['service'] },
  'io.k8s.api.core.v1.HTTPGetAction': { tags: { path: 1, port: 2, host: 3, scheme: 4, httpHeaders: 5 } },
  'io.k8s.api.core.v1.HTTPHeader': { tags: { name: 1, value: 2 } },
  'io.k8s.api.core.v1.HostAlias': { tags: { ip: 1, hostnames: 2 } },
  'io.k8s.api.core.v1.HostIP': { tags: { ip: 1 } },
  'io.k8s.api.core.v1.HostPathVolumeSource': { tags: { path: 1, type: 2 }, pointers: ['type'] },
  'io.k8s.api.core.v1.ImageVolumeSource': { tags: { reference: 1, pullPolicy: 2 } },
  'io.k8s.api.core.v1.KeyToPath': { tags: { key: 1, path: 2, mode: 3 }, pointers: ['mode'] },
  'io.k8s.api.core.v1.Lifecycle': { tags: { postStart: 1, preStop: 2 } },
  'io.k8s.api.core.v1.LifecycleHandler': { tags: { exec: 1, httpGet: 2, tcpSocket: 3, sleep: 4 } },
  'io.k8s.api.core.v1.LinuxContainerUser': { tags: { uid: 1, gid: 2, supplementalGroups: 3 } },
  'io.k8s.api.core.v1.LocalObjectReference': { tags: { name: 1 } },
  'io.k8s.api.core.v1.NFSVolumeSource': { tags: { server: 1, path: 2, readOnly: 3 } },
  'io.k8s.api.core.v1.NodeAffinity': {
    tags: { requiredDuringSchedulingIgnoredDuringExecution: 1, preferredDuringSchedulingIgnoredDuringExecution: 2 },
  },
  'io.k8s.api.core.v1.NodeSelector': { tags: { nodeSelectorTerms: 1 } },
  'io.k8s.api.core.v1.NodeSelectorRequirement': { tags: { key: 1, operator: 2, values: 3 } },
  'io.k8s.api.core.v1.NodeSelectorTerm': { tags: { matchExpressions: 1, matchFields: 2 } },
  'io.k8s.api.core.v1.ObjectFieldSelector': { tags: { apiVersion: 1, fieldPath: 2 } },
  'io.k8s.api.core.v1.PersistentVolumeClaimTemplate': { tags: { metadata: 1, spec: 2 } },
  'io.k8s.api.core.v1.PersistentVolumeClaimVolumeSource': { tags: { claimName: 1, readOnly: 2 } },
  'io.k8s.api.core.v1.Pod': { tags: { metadata: 1, spec: 2, status: 3 } },
  'io.k8s.api.core.v1.PodAffinity': {
    tags: { requiredDuringSchedulingIgnoredDuringExecution: 1, preferredDuringSchedulingIgnoredDuringExecution: 2 },
  },
  'io.k8s.api.core.v1.PodAffinityTerm': {
    tags: { labelSelector: 1, namespaces: 2, topologyKey: 3, namespaceSelector: 4, matchLabelKeys: 5, mismatchLabelKeys: 6 },
  },
  'io.k8s.api.core.v1.PodAntiAffinity': {
    tags: { requiredDuringSchedulingIgnoredDuringExecution: 1, preferredDuringSchedulingIgnoredDuringExecution: 2 },
  },
  'io.k8s.api.core.v1.PodCondition': {
    tags: { type: 1, status: 2, lastProbeTime: 3, lastTransitionTime: 4, reason: 5, message: 6 },
  },
  'io.k8s.api.core.v1.PodDNSConfig': { tags: { nameservers: 1, searches: 2, options: 3 } },
  'io.k8s.api.core.v1.PodDNSConfigOption': { tags: { name: 1, value: 2 }, pointers: ['value'] },
  'io.k8s.api.core.v1.PodIP': { tags: { ip: 1 } },
  'io.k8s.api.core.v1.PodList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.core.v1.PodOS': { tags: { name: 1 } },
  'io.k8s.api.core.v1.PodReadinessGate': { tags: { conditionType: 1 } },
  'io.k8s.api.core.v1.PodResourceClaim': {
    tags: { name: 1, resourceClaimName: 3, resourceClaimTemplateName: 4 },
    pointers: ['resourceClaimName', 'resourceClaimTemplateName'],
  },
  'io.k8s.api.core.v1.PodResourceClaimStatus': {
    tags: { name: 1, resourceClaimName: 2 },
    pointers: ['resourceClaimName'],
  },
  'io.k8s.api.core.v1.PodSchedulingGate': { tags: { name: 1 } },
  'io.k8s.api.core.v1.PodSecurityContext': {
    tags: { seLinuxOptions: 1, runAsUser: 2, runAsNonRoot: 3, supplementalGroups: 4, fsGroup: 5, runAsGroup: 6, sysctls: 7, windowsOptions: 8, fsGroupChangePolicy: 9, seccompProfile: 10, appArmorProfile: 11, supplementalGroupsPolicy: 12, seLinuxChangePolicy: 13 },
    pointers: ['runAsUser', 'runAsGroup', 'runAsNonRoot', 'supplementalGroupsPolicy', 'fsGroup', 'fsGroupChangePolicy', 'seLinuxChangePolicy'],
  },
  'io.k8s.api.core.v1.PodSpec': {
    tags: { volumes: 1, containers: 2, restartPolicy: 3, terminationGracePeriodSeconds: 4, activeDeadlineSeconds: 5, dnsPolicy: 6, nodeSelector: 7, serviceAccountName: 8, serviceAccount: 9, nodeName: 10, hostNetwork: 11, hostPID: 12, hostIPC: 13, securityContext: 14, imagePullSecrets: 15, hostname: 16, subdomain: 17, affinity: 18, schedulerName: 19, initContainers: 20, automountServiceAccountToken: 21, tolerations: 22, hostAliases: 23, priorityClassName: 24, priority: 25, dnsConfig: 26, shareProcessNamespace: 27, readinessGates: 28, runtimeClassName: 29, enableServiceLinks: 30, preemptionPolicy: 31, overhead: 32, topologySpreadConstraints: 33, ephemeralContainers: 34, setHostnameAsFQDN: 35, os: 36, hostUsers: 37, schedulingGates: 38, resourceClaims: 39, resources: 40 },
    pointers: ['terminationGracePeriodSeconds', 'activeDeadlineSeconds', 'automountServiceAccountToken', 'shareProcessNamespace', 'priority', 'runtimeClassName', 'enableServiceLinks', 'preemptionPolicy', 'setHostnameAsFQDN', 'hostUsers'],
  },
  'io.k8s.api.core.v1.PodStatus': {
    tags: { phase: 1, conditions: 2, message: 3, reason: 4, hostIP: 5, podIP: 6, startTime: 7, containerStatuses: 8, qosClass: 9, initContainerStatuses: 10, nominatedNodeName: 11, podIPs: 12, ephemeralContainerStatuses: 13, resize: 14, resourceClaimStatuses: 15, hostIPs: 16 },
  },
  'io.k8s.api.core.v1.PodTemplateSpec': { tags: { metadata: 1, spec: 2 } },
  'io.k8s.api.core.v1.PreferredSchedulingTerm': { tags: { weight: 1, preference: 2 } },
  'io.k8s.api.core.v1.Probe': {
    tags: { initialDelaySeconds: 2, timeoutSeconds: 3, periodSeconds: 4, successThreshold: 5, failureThreshold: 6, terminationGracePeriodSeconds: 7 },
    pointers: ['terminationGracePeriodSeconds'],
    inline: { 1: 'io.k8s.api.core.v1.ProbeHandler' },
  },
  'io.k8s.api.core.v1.ProbeHandler': { tags: { exec: 1, httpGet: 2, tcpSocket: 3, grpc: 4 } },
  'io.k8s.api.core.v1.ProjectedVolumeSource': { tags: { sources: 1, defaultMode: 2 }, pointers: ['defaultMode'] },
  'io.k8s.api.core.v1.ResourceClaim': { tags: { name: 1, request: 2 } },
  'io.k8s.api.core.v1.ResourceFieldSelector': { tags: { containerName: 1, resource: 2, divisor: 3 } },
  'io.k8s.api.core.v1.ResourceRequirements': { tags: { limits: 1, requests: 2, claims: 3 } },
  'io.k8s.api.core.v1.SELinuxOptions': { tags: { user: 1, role: 2, type: 3, level: 4 } },
  'io.k8s.api.core.v1.SeccompProfile': { tags: { type: 1, localhostProfile: 2 }, pointers: ['localhostProfile'] },
  'io.k8s.api.core.v1.SecretEnvSource': {
    tags: { optional: 2 },
    pointers: ['optional'],
    inline: { 1: 'io.k8s.api.core.v1.LocalObjectReference' },
  },
  'io.k8s.api.core.v1.SecretKeySelector': {
    tags: { key: 2, optional: 3 },
    pointers: ['optional'],
    inline: { 1: 'io.k8s.api.core.v1.LocalObjectReference' },
  },
  'io.k8s.api.core.v1.SecretProjection': {
    tags: { items: 2, optional: 4 },
    pointers: ['optional'],
    inline: { 1: 'io.k8s.api.core.v1.LocalObjectReference' },
  },
  'io.k8s.api.core.v1.SecretVolumeSource': {
    tags: { secretName: 1, items: 2, defaultMode: 3, optional: 4 },
    pointers: ['defaultMode', 'optional'],
  },
  'io.k8s.api.core.v1.SecurityContext': {
    tags: { capabilities: 1, privileged: 2, seLinuxOptions: 3, runAsUser: 4, runAsNonRoot: 5, readOnlyRootFilesystem: 6, allowPrivilegeEscalation: 7, runAsGroup: 8, procMount: 9, windowsOptions: 10, seccompProfile: 11, appArmorProfile: 12 },
    pointers: ['privileged', 'runAsUser', 'runAsGroup', 'runAsNonRoot', 'readOnlyRootFilesystem', 'allowPrivilegeEscalation', 'procMount'],
  },
  'io.k8s.api.core.v1.ServiceAccountTokenProjection': {
    tags: { audience: 1, expirationSeconds: 2, path: 3 },
    pointers: ['expirationSeconds'],
  },
  'io.k8s.api.core.v1.SleepAction': { tags: { seconds: 1 } },
  'io.k8s.api.core.v1.Sysctl': { tags: { name: 1, value: 2 } },
  'io.k8s.api.core.v1.TCPSocketAction': { tags: { port: 1, host: 2 } },
  'io.k8s.api.core.v1.Toleration': {
    tags: { key: 1, operator: 2, value: 3, effect: 4, tolerationSeconds: 5 },
    pointers: ['tolerationSeconds'],
  },
  'io.k8s.api.core.v1.TopologySpreadConstraint': {
    tags: { maxSkew: 1, topologyKey: 2, whenUnsatisfiable: 3, labelSelector: 4, minDomains: 5, nodeAffinityPolicy: 6, nodeTaintsPolicy: 7, matchLabelKeys: 8 },
    pointers: ['minDomains', 'nodeAffinityPolicy', 'nodeTaintsPolicy'],
  },
  'io.k8s.api.core.v1.Volume': { tags: { name: 1 }, inline: { 2: 'io.k8s.api.core.v1.VolumeSource' } },
  'io.k8s.api.core.v1.VolumeDevice': { tags: { name: 1, devicePath: 2 } },
  'io.k8s.api.core.v1.VolumeMount': {
    tags: { name: 1, readOnly: 2, mountPath: 3, subPath: 4, mountPropagation: 5, subPathExpr: 6, recursiveReadOnly: 7 },
    pointers: ['recursiveReadOnly', 'mountPropagation'],
  },
  'io.k8s.api.core.v1.VolumeMountStatus': {
    tags: { name: 1, mountPath: 2, readOnly: 3, recursiveReadOnly: 4 },
    pointers: ['recursiveReadOnly'],
  },
  'io.k8s.api.core.v1.VolumeProjection': {
    tags: { secret: 1, downwardAPI: 2, configMap: 3, serviceAccountToken: 4, clusterTrustBundle: 5 },
  },
  'io.k8s.api.core.v1.VolumeSource': {
    tags: { hostPath: 1, emptyDir: 2, secret: 6, nfs: 7, persistentVolumeClaim: 10, downwardAPI: 16, configMap: 19, projected: 26, csi: 28, ephemeral: 29, image: 30 },
  },
  'io.k8s.api.core.v1.WeightedPodAffinityTerm': { tags: { weight: 1, podAffinityTerm: 2 } },
  'io.k8s.api.core.v1.WindowsSecurityContextOptions': {
    tags: { gmsaCredentialSpecName: 1, gmsaCredentialSpec: 2, runAsUserName: 3, hostProcess: 4 },
    pointers: ['gmsaCredentialSpecName', 'gmsaCredentialSpec', 'runAsUserName', 'hostProcess'],
  },
};
