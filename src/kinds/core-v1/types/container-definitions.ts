import type { Definitions, Schema } from '../../../openapi/schema.js';
import {
  ATOMIC,
  ATOMIC_STRUCT,
  bool,
  CORE,
  core,
  coreArray,
  int32,
  int64,
  intOrString,
  mergeByKey,
  object,
  quantity,
  quantityMap,
  str,
  stringArray,
} from '../../../openapi/builders/shorthand.js';

/** core/v1 Container and EphemeralContainer with their environment, ports, mounts, probes and security context. */

/** Fields shared by Container and EphemeralContainer; the ephemeral one forbids some of them at validation time. */
function containerFields(): Record<string, Schema> {
  return {
    args: stringArray(
      'Arguments to the entrypoint; the image CMD is used when not provided. $(VAR) references are expanded from the environment.',
    ),
    command: stringArray(
      'Entrypoint array, not run in a shell; the image ENTRYPOINT is used when not provided. $(VAR) references are expanded.',
    ),
    env: coreArray('EnvVar', 'Environment variables to set in the container. Cannot be updated.', mergeByKey('name')),
    envFrom: coreArray(
      'EnvFromSource',
      'Sources to populate environment variables from; explicit env entries take precedence. Cannot be updated.',
      ATOMIC,
    ),
    image: str('Container image name.'),
    imagePullPolicy: str('When to pull the image: Always, Never or IfNotPresent. Cannot be updated.', {
      enum: ['Always', 'IfNotPresent', 'Never'],
    }),
    lifecycle: core('Lifecycle', 'Actions the management system takes in response to container lifecycle events.'),
    livenessProbe: core('Probe', 'Periodic liveness probe; the container is restarted when it fails.'),
    name: str('Name of the container, a DNS label unique within the pod. Cannot be updated.'),
    ports: coreArray(
      'ContainerPort',
      'Ports to expose from the container; informational, since any port listening on 0.0.0.0 is reachable.',
      mergeByKey('containerPort', ['containerPort', 'protocol']),
    ),
    readinessProbe: core('Probe', 'Periodic readiness probe; the container is removed from endpoints when it fails.'),
    resizePolicy: coreArray('ContainerResizePolicy', 'Resize policy for the container’s resources.', ATOMIC),
    resources: core('ResourceRequirements', 'Compute resources required by this container.'),
    restartPolicy: str('Per-container restart behaviour; only "Always" is allowed, and only for init containers (sidecars).'),
    securityContext: core('SecurityContext', 'Security options the container runs with.'),
    startupProbe: core('Probe', 'Probe that must succeed before the other probes start.'),
    stdin: bool('Whether the container allocates a stdin buffer in the runtime.'),
    stdinOnce: bool('Whether the runtime closes stdin after the first attach session disconnects.'),
    terminationMessagePath: str('File into which the termination message is written. Defaults to /dev/termination-log.'),
    terminationMessagePolicy: str('How the termination message is populated: File or FallbackToLogsOnError.', {
      enum: ['FallbackToLogsOnError', 'File'],
    }),
    tty: bool('Whether the container allocates a TTY; also requires stdin.'),
    volumeDevices: coreArray('VolumeDevice', 'Block devices to be used by the container.', mergeByKey('devicePath')),
    volumeMounts: coreArray(
      'VolumeMount',
      'Pod volumes to mount into the container’s filesystem. Cannot be updated.',
      mergeByKey('mountPath'),
    ),
    workingDir: str('Working directory; the runtime default is used when not specified. Cannot be updated.'),
  };
}

const keySelector = (source: string): Schema =>
  object(
    `Selects a key of a ${source}.`,
    {
      key: str('The key to select.'),
      name: str('Name of the referent.'),
      optional: bool(`Whether the ${source} or its key must be defined.`),
    },
    { required: ['key'], ...ATOMIC_STRUCT },
  );

const envSource = (source: string): Schema =>
  object(`Selects a ${source} whose data populates environment variables.`, {
    name: str('Name of the referent.'),
    optional: bool(`Whether the ${source} must be defined.`),
  });

const lifecycleHandler = object('Action to take in response to a lifecycle hook; exactly one field is set.', {
  exec: core('ExecAction', 'Runs a command in the container.'),
  httpGet: core('HTTPGetAction', 'Performs an HTTP GET request.'),
  sleep: core('SleepAction', 'Sleeps for a number of seconds.'),
  tcpSocket: core('TCPSocketAction', 'Deprecated and not supported as a lifecycle handler; kept for compatibility.'),
});

const profileUnion = (localhostDescription: string): Schema => ({
  'x-kubernetes-unions': [{ discriminator: 'type', 'fields-to-discriminateBy': { localhostProfile: 'LocalhostProfile' } }],
  required: ['type'],
  properties: {
    localhostProfile: str(localhostDescription),
    type: str('Kind of profile: Localhost, RuntimeDefault or Unconfined.', {
      enum: ['Localhost', 'RuntimeDefault', 'Unconfined'],
    }),
  },
});

export const CORE_V1_CONTAINER_DEFINITIONS: Definitions = {
  [`${CORE}Container`]: object('A single application container to run within a pod.', containerFields(), {
    required: ['name'],
  }),
  [`${CORE}EphemeralContainer`]: object(
    'Temporary container added to an existing pod for user-initiated activities such as debugging; never restarted.',
    {
      ...containerFields(),
      targetContainerName: str('Name of a container in the pod whose namespaces (IPC, PID, ...) this ephemeral container targets.'),
    },
    { required: ['name'] },
  ),
  [`${CORE}ContainerPort`]: object(
    'A network port in a single container.',
    {
      containerPort: int32('Port number on the pod’s IP address; 0 < x < 65536.'),
      hostIP: str('Host IP to bind the external port to.'),
      hostPort: int32('Port number on the host; most containers do not need this.'),
      name: str('IANA_SVC_NAME unique within the pod, referable by services.'),
      // The +default marker 1.32 publishes; server-side apply keys ports by it (R10.69).
      protocol: str('Protocol of the port: UDP, TCP or SCTP. Defaults to TCP.', { enum: ['SCTP', 'TCP', 'UDP'], default: 'TCP' }),
    },
    { required: ['containerPort'] },
  ),
  [`${CORE}EnvVar`]: object(
    'An environment variable present in a container.',
    {
      name: str('Name of the environment variable; must be a C_IDENTIFIER.'),
      value: str('Literal value; $(VAR) references to previously defined variables are expanded.'),
      valueFrom: core('EnvVarSource', 'Source for the value; cannot be used when value is not empty.'),
    },
    { required: ['name'] },
  ),
  [`${CORE}EnvVarSource`]: object('Source for the value of an environment variable.', {
    configMapKeyRef: core('ConfigMapKeySelector', 'Selects a key of a ConfigMap.'),
    fieldRef: core(
      'ObjectFieldSelector',
      'Selects a pod field: metadata.name, metadata.namespace, metadata.labels[...], spec.nodeName, status.podIP, ...',
    ),
    resourceFieldRef: core('ResourceFieldSelector', 'Selects a resource of the container: limits or requests.'),
    secretKeyRef: core('SecretKeySelector', 'Selects a key of a secret in the pod’s namespace.'),
  }),
  [`${CORE}ConfigMapKeySelector`]: keySelector('ConfigMap'),
  [`${CORE}SecretKeySelector`]: keySelector('Secret'),
  [`${CORE}ObjectFieldSelector`]: object(
    'Selects a field of an object by path.',
    {
      apiVersion: str('Version of the schema the fieldPath is written in. Defaults to "v1".'),
      fieldPath: str('Path of the field to select in that version.'),
    },
    { required: ['fieldPath'], ...ATOMIC_STRUCT },
  ),
  [`${CORE}ResourceFieldSelector`]: object(
    'Selects a container resource (cpu, memory) and its output format.',
    {
      containerName: str('Container name; required for volumes, optional for environment variables.'),
      divisor: quantity('Output format of the exposed resource. Defaults to "1".'),
      resource: str('Resource to select.'),
    },
    { required: ['resource'], ...ATOMIC_STRUCT },
  ),
  [`${CORE}EnvFromSource`]: object('Source of a set of environment variables.', {
    configMapRef: core('ConfigMapEnvSource', 'The ConfigMap to select from.'),
    prefix: str('Optional identifier prepended to each key.'),
    secretRef: core('SecretEnvSource', 'The Secret to select from.'),
  }),
  [`${CORE}ConfigMapEnvSource`]: envSource('ConfigMap'),
  [`${CORE}SecretEnvSource`]: envSource('Secret'),
  [`${CORE}VolumeMount`]: object(
    'Mounting of a volume within a container.',
    {
      mountPath: str('Path within the container where the volume is mounted; must not contain ":".'),
      mountPropagation: str('How mounts propagate between host and container. Defaults to None.', {
        enum: ['Bidirectional', 'HostToContainer', 'None'],
      }),
      name: str('Name of the volume; must match the name of a pod volume.'),
      readOnly: bool('Mounted read-only when true. Defaults to false.'),
      recursiveReadOnly: str('Whether read-only mounts are made recursively read-only: Disabled, IfPossible or Enabled.'),
      subPath: str('Path within the volume to mount instead of its root.'),
      subPathExpr: str('Like subPath but with $(VAR) references expanded from the container environment.'),
    },
    { required: ['name', 'mountPath'] },
  ),
  [`${CORE}VolumeDevice`]: object(
    'Mapping of a raw block device within a container.',
    {
      devicePath: str('Path inside the container the device is mapped to.'),
      name: str('Name of a persistentVolumeClaim in the pod.'),
    },
    { required: ['name', 'devicePath'] },
  ),
  [`${CORE}ResourceRequirements`]: object('Compute resource requirements.', {
    claims: coreArray('ResourceClaim', 'Names of resources, defined in spec.resourceClaims, used by this container.', {
      'x-kubernetes-list-map-keys': ['name'],
      'x-kubernetes-list-type': 'map',
    }),
    limits: quantityMap('Maximum amount of compute resources allowed.'),
    requests: quantityMap('Minimum amount of compute resources required; defaults to limits when omitted.'),
  }),
  [`${CORE}ResourceClaim`]: object(
    'Reference to one entry of PodSpec.resourceClaims.',
    {
      name: str('Name of an entry in pod.spec.resourceClaims.'),
      request: str('Name of a request in the referenced claim; empty means the whole claim.'),
    },
    { required: ['name'] },
  ),
  [`${CORE}ContainerResizePolicy`]: object(
    'Resize policy for one container resource.',
    {
      resourceName: str('Resource this policy applies to: cpu or memory.'),
      restartPolicy: str('Restart behaviour when the resource is resized: NotRequired or RestartContainer.'),
    },
    { required: ['resourceName', 'restartPolicy'] },
  ),
  [`${CORE}Probe`]: object('Health check performed against a container.', {
    exec: core('ExecAction', 'Runs a command in the container.'),
    failureThreshold: int32('Consecutive failures after which the probe is considered failed. Defaults to 3.'),
    grpc: core('GRPCAction', 'Performs a gRPC health check.'),
    httpGet: core('HTTPGetAction', 'Performs an HTTP GET request.'),
    initialDelaySeconds: int32('Seconds after the container started before probes are initiated.'),
    periodSeconds: int32('How often, in seconds, to probe. Defaults to 10.'),
    successThreshold: int32('Consecutive successes after a failure to be considered successful. Defaults to 1.'),
    tcpSocket: core('TCPSocketAction', 'Opens a TCP connection.'),
    terminationGracePeriodSeconds: int64(
      'Grace period in seconds after a probe failure before the container is killed; overrides the pod value.',
    ),
    timeoutSeconds: int32('Seconds after which the probe times out. Defaults to 1.'),
  }),
  [`${CORE}ExecAction`]: object('Runs a command inside the container, not in a shell.', {
    command: stringArray('Command line to execute; exit status 0 is healthy.'),
  }),
  [`${CORE}GRPCAction`]: object(
    'gRPC health check.',
    {
      port: int32('Port number of the gRPC service; 1-65535.'),
      service: str('Service name placed in the gRPC HealthCheckRequest.'),
    },
    { required: ['port'] },
  ),
  [`${CORE}HTTPGetAction`]: object(
    'HTTP GET request.',
    {
      host: str('Host name to connect to; defaults to the pod IP.'),
      httpHeaders: coreArray('HTTPHeader', 'Custom headers to set; repeated headers are allowed.', ATOMIC),
      path: str('Path to access on the HTTP server.'),
      port: intOrString('Number or IANA_SVC_NAME of the port on the container.'),
      scheme: str('Scheme used to connect. Defaults to HTTP.', { enum: ['HTTP', 'HTTPS'] }),
    },
    { required: ['port'] },
  ),
  [`${CORE}HTTPHeader`]: object(
    'Custom header used in HTTP probes.',
    {
      name: str('Header field name; canonicalized on output.'),
      value: str('Header field value.'),
    },
    { required: ['name', 'value'] },
  ),
  [`${CORE}TCPSocketAction`]: object(
    'Action based on opening a socket.',
    {
      host: str('Host name to connect to; defaults to the pod IP.'),
      port: intOrString('Number or IANA_SVC_NAME of the port on the container.'),
    },
    { required: ['port'] },
  ),
  [`${CORE}SleepAction`]: object('Sleep action.', { seconds: int64('Seconds to sleep.') }, { required: ['seconds'] }),
  [`${CORE}Lifecycle`]: object('Actions taken in response to container lifecycle events.', {
    postStart: core('LifecycleHandler', 'Called right after the container is created; failure restarts it.'),
    preStop: core('LifecycleHandler', 'Called before the container is terminated by an API request or event.'),
  }),
  [`${CORE}LifecycleHandler`]: lifecycleHandler,
  [`${CORE}SecurityContext`]: object('Security configuration applied to a container; overrides the equivalent pod-level fields.', {
    allowPrivilegeEscalation: bool('Whether a process can gain more privileges than its parent (no_new_privs).'),
    appArmorProfile: core('AppArmorProfile', 'AppArmor options; overrides the pod’s.'),
    capabilities: core('Capabilities', 'Capabilities to add or drop; defaults to the runtime’s set.'),
    privileged: bool('Run in privileged mode, equivalent to root on the host. Defaults to false.'),
    procMount: str('Type of proc mount: Default or Unmasked.', { enum: ['Default', 'Unmasked'] }),
    readOnlyRootFilesystem: bool('Whether the container has a read-only root filesystem. Defaults to false.'),
    runAsGroup: int64('GID to run the entrypoint of the container process.'),
    runAsNonRoot: bool('Require the container to run as a non-root user, checked by the kubelet.'),
    runAsUser: int64('UID to run the entrypoint of the container process.'),
    seLinuxOptions: core('SELinuxOptions', 'SELinux context applied to the container.'),
    seccompProfile: core('SeccompProfile', 'Seccomp options; overrides the pod’s.'),
    windowsOptions: core('WindowsSecurityContextOptions', 'Windows-specific settings.'),
  }),
  [`${CORE}Capabilities`]: object('POSIX capabilities to add to or drop from running containers.', {
    add: stringArray('Added capabilities.'),
    drop: stringArray('Removed capabilities.'),
  }),
  [`${CORE}SELinuxOptions`]: object('SELinux labels applied to a container.', {
    level: str('SELinux level label.'),
    role: str('SELinux role label.'),
    type: str('SELinux type label.'),
    user: str('SELinux user label.'),
  }),
  [`${CORE}SeccompProfile`]: {
    description: 'Seccomp profile settings for a pod or container; exactly one source must be set.',
    type: 'object',
    ...profileUnion('Profile file on the node, relative to the kubelet’s seccomp directory; only for Localhost.'),
  },
  [`${CORE}AppArmorProfile`]: {
    description: 'AppArmor profile settings for a pod or container.',
    type: 'object',
    ...profileUnion('Name of a profile loaded on the node; only for Localhost.'),
  },
  [`${CORE}WindowsSecurityContextOptions`]: object('Windows-specific options and credentials.', {
    gmsaCredentialSpec: str('Contents of the GMSA credential spec named by gmsaCredentialSpecName.'),
    gmsaCredentialSpecName: str('Name of the GMSA credential spec to use.'),
    hostProcess: bool('Whether the container runs as a Windows HostProcess container.'),
    runAsUserName: str('User name to run the entrypoint as.'),
  }),
};
