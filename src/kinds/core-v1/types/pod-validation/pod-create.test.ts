import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FieldError, fieldErrorBody } from '../../../../api/errors.js';
import type { KubeObject } from '../../../../api/types.js';
import { defaultPod } from '../pod-defaults.js';
import { validatePodCreate } from './pod-object.js';

type Obj = Record<string, unknown>;

const rendered = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);

/** A pod as the store validates it: client fields, then API defaulting. */
function pod(spec: Obj, metadata: Obj = {}): KubeObject {
  const copy = structuredClone(spec);
  defaultPod(copy);
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', ...metadata }, spec: copy };
}

const app = (extra: Obj = {}): Obj => ({ name: 'app', image: 'nginx', ...extra });
const withApp = (extra: Obj = {}, spec: Obj = {}): Obj => ({ containers: [app(extra)], ...spec });

describe('ValidatePodCreate accepts valid pods', () => {
  const valid: [string, Obj][] = [
    ['one container', withApp()],
    [
      'ports, env and resources',
      withApp({
        ports: [{ name: 'http', containerPort: 80 }],
        env: [{ name: 'A', value: '1' }],
        resources: { requests: { cpu: '100m' }, limits: { cpu: '1', memory: '1Gi' } },
      }),
    ],
    ['relaxed env var names (1.32 default)', withApp({ env: [{ name: '1-not.a C name', value: 'x' }] })],
    [
      'a sidecar with probes',
      withApp({}, { initContainers: [app({ name: 'side', restartPolicy: 'Always', readinessProbe: { exec: { command: ['true'] } } })] }),
    ],
    [
      'volumes and mounts',
      withApp(
        {
          volumeMounts: [
            { name: 'data', mountPath: '/data' },
            { name: 'cfg', mountPath: '/cfg' },
          ],
        },
        {
          volumes: [
            { name: 'data', emptyDir: {} },
            { name: 'cfg', configMap: { name: 'c', items: [{ key: 'k', path: 'p' }] } },
          ],
        },
      ),
    ],
    ['probes', withApp({ livenessProbe: { httpGet: { port: 8080 } }, startupProbe: { tcpSocket: { port: 'http' } } })],
    [
      'tolerations',
      withApp({}, { tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }, { operator: 'Exists' }] }),
    ],
    ['host network with matching ports', withApp({ ports: [{ containerPort: 8080 }] }, { hostNetwork: true })],
    ['dns None with a nameserver', withApp({}, { dnsPolicy: 'None', dnsConfig: { nameservers: ['1.1.1.1'] } })],
  ];
  for (const [title, spec] of valid) {
    it(title, () => assert.deepEqual(rendered(validatePodCreate(pod(spec))), []));
  }
});

describe('ValidatePodCreate refuses what kube-apiserver 1.32 refuses', () => {
  const invalid: [source: string, spec: Obj, expected: string[], metadata?: Obj][] = [
    ['validateContainers: no containers', { containers: [] }, ['spec.containers: Required value']],
    ['validateContainerCommon: image required', { containers: [{ name: 'app' }] }, ['spec.containers[0].image: Required value']],
    [
      'validateContainerPorts: port range',
      withApp({ ports: [{ containerPort: 70000 }] }),
      ['spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive'],
    ],
    ['validateContainers: duplicate names', { containers: [app(), app()] }, ['spec.containers[1].name: Duplicate value: "app"']],
    [
      'ValidatePodSpec: activeDeadlineSeconds',
      withApp({}, { activeDeadlineSeconds: 0 }),
      ['spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive'],
    ],
    [
      'validateContainerCommon: DNS-1123 label name',
      { containers: [app({ name: 'App_1' })] },
      [
        "spec.containers[0].name: Invalid value: \"App_1\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
    [
      'validateInitContainers: init and regular names are shared',
      withApp({}, { initContainers: [app()] }),
      ['spec.initContainers[0].name: Duplicate value: "app"'],
    ],
    [
      'validateInitContainers: probes need restartPolicy Always',
      withApp({}, { initContainers: [app({ name: 'init', livenessProbe: { exec: { command: ['x'] } } })] }),
      ['spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always'],
    ],
    [
      'validateInitContainerRestartPolicy',
      withApp({}, { initContainers: [app({ name: 'init', restartPolicy: 'Never' })] }),
      ['spec.initContainers[0].restartPolicy: Unsupported value: "Never": supported values: "Always"'],
    ],
    [
      'validateContainers: restartPolicy on a regular container',
      withApp({ restartPolicy: 'Always' }),
      ['spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers'],
    ],
    [
      'ValidatePodCreate: ephemeral containers on create',
      withApp(
        {},
        { ephemeralContainers: [{ name: 'debug', image: 'busybox', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' }] },
      ),
      ['spec.ephemeralContainers: Forbidden: cannot be set on create'],
    ],
    [
      'validateContainerPorts: protocol, host port and names',
      withApp({
        ports: [
          { name: 'http', containerPort: 80, protocol: 'ICMP', hostPort: 70000 },
          { name: 'http', containerPort: 81 },
        ],
      }),
      [
        'spec.containers[0].ports[0].hostPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'spec.containers[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
        'spec.containers[0].ports[1].name: Duplicate value: "http"',
      ],
    ],
    [
      'validateContainerPorts: port name IANA_SVC_NAME',
      withApp({ ports: [{ name: 'a-very-long-port-name', containerPort: 80 }] }),
      ['spec.containers[0].ports[0].name: Invalid value: "a-very-long-port-name": must be no more than 15 characters'],
    ],
    [
      'checkHostPortConflicts',
      {
        containers: [
          app({ ports: [{ containerPort: 80, hostPort: 8080 }] }),
          app({ name: 'b', ports: [{ containerPort: 81, hostPort: 8080 }] }),
        ],
      },
      ['spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"'],
    ],
    [
      'validatePodHostNetworkDeps',
      withApp({ ports: [{ containerPort: 80, hostPort: 81 }] }, { hostNetwork: true }),
      ['spec.containers[0].ports[0].hostPort: Invalid value: 81: must match `containerPort` when `hostNetwork` is true'],
    ],
    [
      'ValidateEnv: name required, relaxed names refuse "="',
      withApp({ env: [{ value: 'x' }, { name: 'A=B' }] }),
      [
        'spec.containers[0].env[0].name: Required value',
        'spec.containers[0].env[1].name: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than \'=\'',
      ],
    ],
    [
      'validateEnvVarValueFrom: one source, no value beside it',
      withApp({
        env: [
          { name: 'A', valueFrom: {} },
          { name: 'B', value: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          { name: 'C', valueFrom: { fieldRef: { fieldPath: 'metadata.labels' } } },
          { name: 'D', valueFrom: { secretKeyRef: { name: 's', key: '' } } },
        ],
      }),
      [
        'spec.containers[0].env[0].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
        'spec.containers[0].env[1].valueFrom: Invalid value: "": may not be specified when `value` is not empty',
        'spec.containers[0].env[2].valueFrom.fieldRef.fieldPath: Unsupported value: "metadata.labels": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"',
        'spec.containers[0].env[3].valueFrom.secretKeyRef.key: Required value',
      ],
    ],
    [
      'ValidateEnvFrom: a source is required',
      withApp({ envFrom: [{ prefix: 'P_' }] }),
      ['spec.containers[0].envFrom: Invalid value: "": must specify one of: `configMapRef` or `secretRef`'],
    ],
    [
      'validateResourceRequirements: requests above limits, negative and unknown names',
      withApp({ resources: { limits: { cpu: '1' }, requests: { cpu: '2', memory: '-1Gi', gpu: '1' } } }),
      [
        'spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
        'spec.containers[0].resources.requests[memory]: Invalid value: "-1Gi": must be greater than or equal to 0',
        'spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified',
        'spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers',
      ],
    ],
    [
      'validateResourceRequirements: canonical quantities in the message',
      withApp({ resources: { limits: { memory: '1024Mi' }, requests: { memory: '1500Mi' } } }),
      ['spec.containers[0].resources.requests: Invalid value: "1500Mi": must be less than or equal to memory limit of 1Gi'],
    ],
    [
      'validateResourceRequirements: extended resources are whole and not overcommitted',
      withApp({ resources: { limits: { 'example.com/gpu': '2' }, requests: { 'example.com/gpu': '1' } } }),
      ['spec.containers[0].resources.requests: Invalid value: "1": must be equal to example.com/gpu limit of 2'],
    ],
    [
      'ValidateVolumeMounts: unknown volume, missing path, duplicate path',
      withApp(
        {
          volumeMounts: [
            { name: 'nope', mountPath: '/a' },
            { name: 'v', mountPath: '' },
            { name: 'v', mountPath: '/a' },
          ],
        },
        { volumes: [{ name: 'v', emptyDir: {} }] },
      ),
      [
        'spec.containers[0].volumeMounts[0].name: Not found: "nope"',
        'spec.containers[0].volumeMounts[1].mountPath: Required value',
        'spec.containers[0].volumeMounts[2].mountPath: Invalid value: "/a": must be unique',
      ],
    ],
    [
      'ValidateVolumes: names, sources and duplicates',
      withApp(
        {},
        {
          volumes: [
            { name: 'v', emptyDir: {} },
            { name: 'v', emptyDir: {} },
            { name: 'w', hostPath: { path: '' } },
            { name: 'x', emptyDir: {}, hostPath: { path: '/x' } },
          ],
        },
      ),
      [
        'spec.volumes[1].name: Duplicate value: "v"',
        'spec.volumes[2].hostPath.path: Required value',
        'spec.volumes[3].hostPath: Forbidden: may not specify more than 1 volume type',
      ],
    ],
    [
      'volume sources: required fields, modes and paths',
      withApp(
        {},
        {
          volumes: [
            { name: 'a', hostPath: { path: '/x', type: 'Dir' } },
            { name: 'b', secret: { defaultMode: 1000 } },
            { name: 'c', configMap: { name: 'c', items: [{ key: 'k', path: '../x' }] } },
            { name: 'd', persistentVolumeClaim: { claimName: '' } },
            { name: 'e', emptyDir: { sizeLimit: '-1Gi' } },
          ],
        },
      ),
      [
        'spec.volumes[0].hostPath.type: Unsupported value: "Dir": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"',
        'spec.volumes[1].secret.secretName: Required value',
        'spec.volumes[1].secret.defaultMode: Invalid value: 1000: must be a number between 0 and 0777 (octal), both inclusive',
        'spec.volumes[2].configMap.items[0].path: Invalid value: "../x": must not contain \'..\'',
        'spec.volumes[3].persistentVolumeClaim.claimName: Required value',
        'spec.volumes[4].emptyDir.sizeLimit: Forbidden: SizeLimit field must be a valid resource quantity',
      ],
    ],
    [
      'validateProbe: one handler, liveness successThreshold 1, non-negative',
      withApp({
        livenessProbe: { exec: { command: ['x'] }, httpGet: { port: 80 }, successThreshold: 2 },
        readinessProbe: { initialDelaySeconds: -1, tcpSocket: { port: 0 } },
        startupProbe: { grpc: { port: 70000 } },
      }),
      [
        'spec.containers[0].livenessProbe.httpGet: Forbidden: may not specify more than 1 handler type',
        'spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
        'spec.containers[0].readinessProbe.tcpSocket.port: Invalid value: 0: must be between 1 and 65535, inclusive',
        'spec.containers[0].readinessProbe.initialDelaySeconds: Invalid value: -1: must be greater than or equal to 0',
        'spec.containers[0].startupProbe.grpc.port: Invalid value: 70000: must be between 1 and 65535, inclusive',
      ],
    ],
    [
      'validateLifecycle: a handler is required, sleep within the grace period',
      withApp({ lifecycle: { postStart: {}, preStop: { sleep: { seconds: 60 } } } }),
      [
        'spec.containers[0].lifecycle.postStart: Required value: must specify a handler type',
        'spec.containers[0].lifecycle.preStop.sleep: Invalid value: 60: must be greater than 0 and less than terminationGracePeriodSeconds (30). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.',
      ],
    ],
    [
      'validatePullPolicy and terminationMessagePolicy enums',
      withApp({ imagePullPolicy: 'Sometimes', terminationMessagePolicy: 'Log' }),
      [
        'spec.containers[0].terminationMessagePolicy: Unsupported value: "Log": supported values: "File", "FallbackToLogsOnError"',
        'spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
      ],
    ],
    [
      'ValidateSecurityContext: ids, procMount, privilege escalation',
      withApp({
        securityContext: {
          runAsUser: -1,
          procMount: 'Unmasked',
          allowPrivilegeEscalation: false,
          capabilities: { add: ['CAP_SYS_ADMIN'] },
        },
      }),
      [
        'spec.containers[0].securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive',
        'spec.containers[0].securityContext.procMount: Invalid value: "Unmasked": `hostUsers` must be false to use `Unmasked`',
        'spec.containers[0].securityContext: Invalid value: {"runAsUser":-1,"procMount":"Unmasked","allowPrivilegeEscalation":false,"capabilities":{"add":["CAP_SYS_ADMIN"]}}: cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN',
      ],
    ],
    [
      'validatePodSpecSecurityContext: seccomp profile type, shareProcessNamespace with hostPID',
      withApp({}, { hostPID: true, shareProcessNamespace: true, securityContext: { seccompProfile: { type: 'Localhost' } } }),
      [
        'spec.securityContext.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled',
        'spec.securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost',
      ],
    ],
    [
      'validateRestartPolicy and validateDNSPolicy',
      withApp({}, { restartPolicy: 'Sometimes', dnsPolicy: 'Google' }),
      [
        'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
        'spec.dnsPolicy: Unsupported value: "Google": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
      ],
    ],
    [
      'validatePodDNSConfig: None needs nameservers, at most 3',
      withApp({}, { dnsPolicy: 'None', dnsConfig: { nameservers: [] } }),
      ['spec.dnsConfig.nameservers: Required value: must provide at least one DNS nameserver when `dnsPolicy` is None'],
    ],
    [
      'validatePodDNSConfig: too many nameservers, bad IP',
      withApp({}, { dnsConfig: { nameservers: ['1.1.1.1', '2.2.2.2', '3.3.3.3', 'x'] } }),
      [
        'spec.dnsConfig.nameservers: Invalid value: []string{"1.1.1.1", "2.2.2.2", "3.3.3.3", "x"}: must not have more than 3 nameservers',
        'spec.dnsConfig.nameservers[3]: Invalid value: "x": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      ],
    ],
    [
      'ValidateTolerations: operator, effect, value with Exists',
      withApp(
        {},
        {
          tolerations: [
            { key: 'k', operator: 'Exists', value: 'v' },
            { operator: 'Equal' },
            { key: 'k', effect: 'NoSchedule', tolerationSeconds: 1 },
            { key: 'k', operator: 'Maybe', effect: 'Never' },
          ],
        },
      ),
      [
        'spec.tolerations[0].operator: Invalid value: "v": value must be empty when `operator` is \'Exists\'',
        'spec.tolerations[1].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
        'spec.tolerations[2].effect: Invalid value: "NoSchedule": effect must be \'NoExecute\' when `tolerationSeconds` is set',
        'spec.tolerations[3].operator: Unsupported value: "Maybe": supported values: "Equal", "Exists"',
        'spec.tolerations[3].effect: Unsupported value: "Never": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      ],
    ],
    [
      'validateAffinity: node terms, operators, weights, topologyKey',
      withApp(
        {},
        {
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] },
              preferredDuringSchedulingIgnoredDuringExecution: [
                { weight: 0, preference: { matchExpressions: [{ key: 'k', operator: 'Near' }] } },
              ],
            },
            podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'x' } } }] },
          },
        },
      ),
      [
        'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term',
        'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100',
        'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
        'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty',
        'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": name part must be non-empty',
        // Go's IsQualifiedName adds the pattern error for "" too.
        "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
    ],
    [
      'validateTopologySpreadConstraints',
      withApp(
        {},
        {
          topologySpreadConstraints: [
            { maxSkew: 0, topologyKey: 'zone', whenUnsatisfiable: 'Maybe' },
            { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'Maybe' },
          ],
        },
      ),
      [
        'spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero',
        'spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "Maybe": supported values: "DoNotSchedule", "ScheduleAnyway"',
        'spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, Maybe}"',
        'spec.topologySpreadConstraints[1].whenUnsatisfiable: Unsupported value: "Maybe": supported values: "DoNotSchedule", "ScheduleAnyway"',
      ],
    ],
    [
      'ValidatePodSpec: names of service account, node, priority class; hostname',
      withApp({}, { serviceAccountName: 'Bad_SA', hostname: 'a.b' }),
      [
        "spec.serviceAccountName: Invalid value: \"Bad_SA\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        // IsDNS1123Label: a valid subdomain that is not a label can only have dots in it.
        'spec.hostname: Invalid value: "a.b": must not contain dots',
      ],
    ],
    [
      'validateSchedulingGates and nodeName with gates',
      withApp({}, { nodeName: 'n1', schedulingGates: [{ name: 'a' }, { name: 'a' }] }),
      [
        'spec.schedulingGates[1]: Duplicate value: "a"',
        'spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared',
      ],
    ],
    [
      'validateOS: name and the fields Windows forbids',
      withApp({ securityContext: { privileged: true } }, { os: { name: 'windows' }, hostPID: true }),
      [
        'spec.hostPID: Forbidden: cannot be set for a windows pod',
        'spec.containers[0].securityContext.privileged: Forbidden: cannot be set for a windows pod',
      ],
    ],
    [
      'validateOS: unknown system',
      withApp({}, { os: { name: 'plan9' } }),
      ['spec.os: Unsupported value: "plan9": supported values: "linux", "windows"'],
    ],
    [
      'validateContainerOnlyForPod: image whitespace',
      { containers: [app({ image: ' nginx' })] },
      ['spec.containers[0].image: Invalid value: " nginx": must not have leading or trailing whitespace'],
    ],
    [
      'ValidatePodSpecificAnnotations: deletion cost and seccomp annotations',
      withApp(),
      [
        'metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "+1": must be a 32bit integer',
        'metadata.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: "bad": must be a valid seccomp profile',
      ],
      { annotations: { 'controller.kubernetes.io/pod-deletion-cost': '+1', 'seccomp.security.alpha.kubernetes.io/pod': 'bad' } },
    ],
  ];
  for (const [source, spec, expected, metadata] of invalid) {
    it(source, () => assert.deepEqual(rendered(validatePodCreate(pod(spec, metadata))), expected));
  }
});

describe('ValidatePodCreate: annotation and field consistency, Windows host processes', () => {
  it('validateAppArmorAnnotationsAndFieldsMatchOnCreate', () => {
    const p = pod(withApp({ securityContext: { appArmorProfile: { type: 'RuntimeDefault' } } }), {
      annotations: { 'container.apparmor.security.beta.kubernetes.io/app': 'unconfined' },
    });
    assert.deepEqual(rendered(validatePodCreate(p)), [
      'spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match',
    ]);
  });
  it('validateSeccompAnnotationsAndFields', () => {
    const p = pod(withApp({}, { securityContext: { seccompProfile: { type: 'RuntimeDefault' } } }), {
      annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' },
    });
    assert.deepEqual(rendered(validatePodCreate(p)), [
      'spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match',
    ]);
  });
  it('validateWindowsHostProcessPod', () => {
    const p = pod({ containers: [app({ securityContext: { windowsOptions: { hostProcess: true } } }), app({ name: 'b' })] });
    assert.deepEqual(rendered(validatePodCreate(p)), [
      'spec: Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers',
      'spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers',
    ]);
  });
});

describe('ValidatePodCreate: less common fields', () => {
  const cases: [source: string, spec: Obj, expected: string[]][] = [
    [
      'checkHostPortConflicts on init containers reports index 0 (as Kubernetes does)',
      withApp(
        {},
        {
          initContainers: [
            app({ name: 'i0' }),
            app({
              name: 'i1',
              ports: [
                { containerPort: 1, hostPort: 9 },
                { containerPort: 2, hostPort: 9 },
              ],
            }),
          ],
        },
      ),
      ['spec.initContainers[0].ports[1].hostPort: Duplicate value: "TCP//9"'],
    ],
    [
      'validateObjectFieldSelector: subscripted labels must be qualified names',
      withApp({ env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath: "metadata.labels['bad key']" } } }] }),
      [
        "spec.containers[0].env[0].valueFrom.fieldRef: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
    ],
    [
      'validateContainerResourceFieldSelector: resource and divisor',
      withApp({
        env: [
          { name: 'A', valueFrom: { resourceFieldRef: { resource: 'limits.gpu' } } },
          { name: 'B', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '2' } } },
        ],
      }),
      [
        'spec.containers[0].env[0].valueFrom.resourceFieldRef.resource: Unsupported value: "limits.gpu": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"',
        'spec.containers[0].env[1].valueFrom.resourceFieldRef.divisor: Invalid value: "limits.cpu": only divisor\'s values 1m and 1 are supported with the cpu resource',
      ],
    ],
    [
      'validateProjectionSources: one source per entry, no duplicate paths',
      withApp(
        {},
        {
          serviceAccountName: 'default',
          volumes: [
            {
              name: 'p',
              projected: {
                sources: [
                  { configMap: { name: 'a', items: [{ key: 'k', path: 'x' }] }, secret: { name: 's' } },
                  { configMap: { name: 'b', items: [{ key: 'k', path: 'x' }] } },
                  { serviceAccountToken: { path: 'token', expirationSeconds: 60 } },
                ],
              },
            },
          ],
        },
      ),
      [
        'spec.volumes[0].projected.sources[0]: Forbidden: may not specify more than 1 volume type per source',
        'spec.volumes[0].projected: Invalid value: "b": conflicting duplicate paths',
        'spec.volumes[0].projected.sources[2].serviceAccountToken.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
      ],
    ],
    [
      'validateDownwardAPIVolumeFile: one reference per file, at the source path',
      withApp(
        {},
        { volumes: [{ name: 'd', downwardAPI: { items: [{ path: 'a' }, { path: 'b', fieldRef: { fieldPath: 'spec.nodeName' } }] } }] },
      ),
      [
        'spec.volumes[0].downwardAPI: Required value: one of fieldRef and resourceFieldRef is required',
        'spec.volumes[0].downwardAPI.fieldRef.fieldPath: Unsupported value: "spec.nodeName": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"',
      ],
    ],
    [
      'validateSysctls, readiness gates, host aliases',
      withApp(
        {},
        {
          hostNetwork: true,
          securityContext: {
            sysctls: [
              { name: 'net.core.somaxconn', value: '1' },
              { name: 'Bad!', value: '1' },
            ],
          },
          readinessGates: [{ conditionType: 'bad gate' }],
          // Go's ParseIPSloppy accepts leading zeros in 1.32 (the second alias).
          hostAliases: [
            { ip: 'nope', hostnames: ['a.b'] },
            { ip: '010.0.0.1', hostnames: ['c.d'] },
          ],
        },
      ),
      [
        'spec.securityContext.sysctls[0].name: Invalid value: "net.core.somaxconn": may not be specified when \'hostNetwork\' is true',
        'spec.securityContext.sysctls[1].name: Invalid value: "Bad!": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$',
        "spec.readinessGates[0].conditionType: Invalid value: \"bad gate\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        'spec.hostAliases[0].ip: Invalid value: "nope": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      ],
    ],
    [
      'validateMinDomains and node inclusion policies',
      withApp(
        {},
        {
          topologySpreadConstraints: [
            { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway', minDomains: 2, nodeTaintsPolicy: 'Sometimes' },
          ],
        },
      ),
      [
        'spec.topologySpreadConstraints[0].minDomains: Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway',
        'spec.topologySpreadConstraints[0].nodeTaintsPolicy: Unsupported value: "Sometimes": supported values: "Honor", "Ignore"',
      ],
    ],
    [
      'validatePodResourceClaims and container claims',
      withApp({ resources: { claims: [{ name: 'gpu' }] } }, { resourceClaims: [{ name: 'c' }] }),
      [
        'spec.resourceClaims[0]: Invalid value: core.PodResourceClaim{Name:"c", ResourceClaimName:(*string)(nil), ResourceClaimTemplateName:(*string)(nil)}: must specify one of: `resourceClaimName`, `resourceClaimTemplateName`',
        'spec.containers[0].resources.claims[0]: Not found: "gpu": must be one of the names in pod.spec.resourceClaims: c',
      ],
    ],
    [
      'validateEphemeralVolumeSource and the generated claim name',
      withApp({}, { volumes: [{ name: 'scratch', ephemeral: {} }] }),
      ['spec.volumes[0].ephemeral.volumeClaimTemplate: Required value'],
    ],
    [
      'validateContainerPorts: protocol defaulted, containerPort required',
      withApp({ ports: [{ name: 'http' }] }),
      ['spec.containers[0].ports[0].containerPort: Required value'],
    ],
  ];
  for (const [source, spec, expected] of cases) {
    it(source, () => assert.deepEqual(rendered(validatePodCreate(pod(spec))), expected));
  }
});
