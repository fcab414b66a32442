import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldErrorBody, type FieldError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { prepareServiceCreate, prepareServiceUpdate } from './service-prepare.js';
import { serviceWarnings, validateService, validateServiceStatusUpdate, validateServiceUpdate } from './service-validation.js';

// Cases from pkg/apis/core/validation (ValidateService, ValidateServiceUpdate, ValidateServiceStatusUpdate,
// ValidateServiceClusterIPsRelatedFields, validateUpgradeDowngradeClusterIPs) and the Service REST storage
// (normalizeClusterIPs, patchAllocatedValues, dropTypeDependentFields); objects are as defaulting leaves them.

const render = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);

type Spec = Record<string, unknown>;

function service(spec: Spec = {}, extra: Partial<KubeObject> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      type: 'ClusterIP',
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
      selector: { app: 'web' },
      sessionAffinity: 'None',
      internalTrafficPolicy: 'Cluster',
      ipFamilyPolicy: 'SingleStack',
      ipFamilies: ['IPv4'],
      ...spec,
    },
    ...extra,
  };
}

const allocated = { clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'] };

const CREATE_CASES: [string, KubeObject, string[]][] = [
  ['ValidateService: a ClusterIP Service with one port', service(), []],
  ['ValidateService: allocated addresses', service(allocated), []],
  ['ValidateService: ports are required', service({ ports: [] }), ['spec.ports: Required value']],
  ['ValidateService: a headless Service needs no ports', service({ ports: [], clusterIP: 'None', clusterIPs: ['None'] }), []],
  [
    'ValidateService: an ExternalName Service needs its name and no ports',
    service({
      type: 'ExternalName',
      ports: [],
      externalName: 'db.example.com.',
      internalTrafficPolicy: undefined,
      ipFamilyPolicy: undefined,
      ipFamilies: undefined,
    }),
    [],
  ],
  [
    'ValidateService: ExternalName without externalName, with cluster IPs and families',
    service({ type: 'ExternalName', ...allocated, internalTrafficPolicy: undefined }),
    [
      'spec.clusterIPs: Forbidden: may not be set for ExternalName services',
      'spec.ipFamilies: Forbidden: may not be set for ExternalName services',
      'spec.ipFamilyPolicy: Forbidden: may not be set for ExternalName services',
      'spec.externalName: Required value',
    ],
  ],
  [
    'validateServicePort: names are required with several ports, and unique',
    service({
      ports: [
        { port: 80, protocol: 'TCP', targetPort: 80 },
        { name: 'http', port: 81, protocol: 'TCP', targetPort: 81 },
        { name: 'http', port: 82, protocol: 'TCP', targetPort: 82 },
      ],
    }),
    ['spec.ports[0].name: Required value', 'spec.ports[2].name: Duplicate value: "http"'],
  ],
  [
    'validateServicePort: port range, protocol enum, targetPort name',
    service({ ports: [{ port: 70000, protocol: 'HTTP', targetPort: 'Web_Port' }] }),
    [
      'spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      'spec.ports[0].targetPort: Invalid value: "Web_Port": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
    ],
  ],
  [
    'ValidateService: the selector is a label map',
    service({ selector: { app: 'a b' } }),
    [
      "spec.selector: Invalid value: \"a b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ],
  ],
  [
    'ValidateService: type and session affinity enums',
    service({ type: 'Internal', sessionAffinity: 'Sticky' }),
    [
      'spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"',
      'spec.type: Unsupported value: "Internal": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
    ],
  ],
  [
    'validateClientIPAffinityConfig: the timeout is at most a day',
    service({ sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 0 } } }),
    ['spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 0: must be greater than 0 and less than 86400'],
  ],
  [
    'ValidateServiceClusterIPsRelatedFields: clusterIPs[0] follows clusterIP',
    service({ clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.11'] }),
    ['spec.clusterIPs: Invalid value: []string{"10.96.0.11"}: first value must match `clusterIP`'],
  ],
  [
    'ValidateServiceClusterIPsRelatedFields: addresses are IPs of the declared family',
    service({ clusterIP: 'ten', clusterIPs: ['ten'] }),
    ['spec.clusterIPs[0]: Invalid value: "ten": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'],
  ],
  [
    'ValidateServiceClusterIPsRelatedFields: an IPv6 address under IPv4',
    service({ clusterIP: 'fd00::10', clusterIPs: ['fd00::10'] }),
    ['spec.clusterIPs[0]: Invalid value: "fd00::10": expected an IPv4 value as indicated by `ipFamilies[0]`'],
  ],
  [
    'ValidateServiceClusterIPsRelatedFields: families and policy enums, no duplicates',
    service({ ipFamilies: ['IPv4', 'IPv4'], ipFamilyPolicy: 'DualStack' }),
    [
      'spec.ipFamilies[1]: Duplicate value: "IPv4"',
      'spec.ipFamilyPolicy: Unsupported value: "DualStack": supported values: "PreferDualStack", "RequireDualStack", "SingleStack"',
    ],
  ],
  [
    'ValidateService: nodePort only when type is not ClusterIP; duplicate (protocol, port)',
    service({
      ports: [
        { name: 'a', port: 80, protocol: 'TCP', targetPort: 80, nodePort: 30080 },
        { name: 'b', port: 80, protocol: 'TCP', targetPort: 8080 },
      ],
    }),
    [
      "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
      'spec.ports[1]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
    ],
  ],
  [
    'ValidateService: external IPs are valid and not special',
    service({ externalIPs: ['127.0.0.1', 'nope'], externalTrafficPolicy: 'Cluster' }),
    [
      'spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      'spec.externalIPs[1]: Invalid value: "nope": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ],
  ],
  [
    'ValidateService: load balancer source ranges only on LoadBalancer, as CIDRs',
    service({ loadBalancerSourceRanges: ['10.0.0.0/8', '10.0.0.0'] }),
    [
      "spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'",
      'spec.LoadBalancerSourceRanges[1]: Invalid value: "10.0.0.0": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ],
  ],
  [
    'ValidateService: a LoadBalancer may not be headless and needs allocateLoadBalancerNodePorts',
    service({ type: 'LoadBalancer', clusterIP: 'None', clusterIPs: ['None'], externalTrafficPolicy: 'Cluster' }),
    [
      'spec.clusterIPs[0]: Invalid value: "None": may not be set to \'None\' for LoadBalancer services',
      'allocateLoadBalancerNodePorts: Required value',
    ],
  ],
  [
    'validateLoadBalancerClassField and allocateLoadBalancerNodePorts: LoadBalancer only',
    service({ loadBalancerClass: 'example.com/lb', allocateLoadBalancerNodePorts: true }),
    [
      "spec.allocateLoadBalancerNodePorts: Forbidden: may only be used when `type` is 'LoadBalancer'",
      "spec.loadBalancerClass: Forbidden: may only be used when `type` is 'LoadBalancer'",
    ],
  ],
  [
    'validateServiceExternalTrafficPolicy: only for externally-accessible Services, required on them',
    service({ externalTrafficPolicy: 'Local', healthCheckNodePort: 30000 }),
    [
      'spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services',
      "spec.healthCheckNodePort: Invalid value: 30000: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
    ],
  ],
  [
    'validateServiceExternalTrafficPolicy: a NodePort Service needs one',
    service({ type: 'NodePort' }),
    ['spec.externalTrafficPolicy: Required value'],
  ],
  [
    'validateServiceInternalTrafficPolicy and trafficDistribution enums',
    service({ internalTrafficPolicy: 'Node', trafficDistribution: 'Nearby' }),
    [
      'spec.internalTrafficPolicy: Unsupported value: "Node": supported values: "Cluster", "Local"',
      'spec.trafficDistribution: Unsupported value: "Nearby": supported values: "PreferClose"',
    ],
  ],
];

for (const [name, obj, expected] of CREATE_CASES) {
  test(name, () => assert.deepEqual(render(validateService(obj)), expected));
}

/** An update as the store runs it: the REST layer's preparation, then ValidateServiceUpdate. */
function update(next: KubeObject, old: KubeObject): string[] {
  prepareServiceUpdate(next, old);
  return render(validateServiceUpdate(next, old));
}

test('normalizeClusterIPs on create: the singular clusterIP fills clusterIPs', () => {
  const obj = service({ clusterIP: 'None' });
  prepareServiceCreate(obj);
  assert.deepEqual((obj.spec as Spec).clusterIPs, ['None']);
  assert.deepEqual(render(validateService(obj)), []);
});

test('ValidateServiceUpdate: an unchanged Service, and one resubmitted without its allocated address, are accepted', () => {
  assert.deepEqual(update(service(allocated), service(allocated)), []);
  const resubmitted = service();
  assert.deepEqual(update(resubmitted, service(allocated)), []);
  assert.equal((resubmitted.spec as Spec).clusterIP, '10.96.0.10');
});

test('validateUpgradeDowngradeClusterIPs: the clusterIP may not change once set', () => {
  assert.deepEqual(update(service({ ...allocated, clusterIP: '10.96.0.20' }), service(allocated)), [
    'spec.clusterIPs[0]: Invalid value: []string{"10.96.0.20"}: may not change once set',
  ]);
  assert.deepEqual(update(service({ ...allocated, clusterIP: 'None' }), service(allocated)), [
    'spec.clusterIPs[0]: Invalid value: []string{"None"}: may not change once set',
  ]);
});

test('validateUpgradeDowngradeIPFamilies: the primary family may not change', () => {
  assert.deepEqual(update(service({ ipFamilies: ['IPv6'] }), service()), [
    'spec.ipFamilies[0]: Invalid value: []string{"IPv6"}: may not change once set',
  ]);
});

test('dropTypeDependentFields: a change to ExternalName clears the addresses and families', () => {
  const next = service({ ...allocated, type: 'ExternalName', externalName: 'db.example.com' });
  assert.deepEqual(update(next, service(allocated)), []);
  const spec = next.spec as Spec;
  assert.equal(spec.clusterIP, undefined);
  assert.equal(spec.ipFamilies, undefined);
});

test('dropTypeDependentFields: NodePort to ClusterIP drops the node ports and the external policy', () => {
  const nodePort = {
    ...allocated,
    type: 'NodePort',
    externalTrafficPolicy: 'Cluster',
    ports: [{ port: 80, protocol: 'TCP', targetPort: 80, nodePort: 30080 }],
  };
  assert.deepEqual(update(service({ ...nodePort, type: 'ClusterIP' }), service(nodePort)), []);
});

test('validateLoadBalancerClassField: the class of a LoadBalancer may not change', () => {
  const lb = {
    ...allocated,
    type: 'LoadBalancer',
    externalTrafficPolicy: 'Cluster',
    allocateLoadBalancerNodePorts: true,
    loadBalancerClass: 'example.com/a',
  };
  assert.deepEqual(update(service({ ...lb, loadBalancerClass: 'example.com/b' }), service(lb)), [
    'spec.loadBalancerClass: Invalid value: "example.com/b": may not change once set',
  ]);
});

test('ValidateServiceStatusUpdate: load balancer ingress only on LoadBalancer Services, with valid addresses', () => {
  const clusterIp = service(allocated, { status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } });
  assert.deepEqual(render(validateServiceStatusUpdate(clusterIp)), [
    "status.loadBalancer.ingress: Forbidden: may only be used when `spec.type` is 'LoadBalancer'",
  ]);
  const lb = service(
    { ...allocated, type: 'LoadBalancer', externalTrafficPolicy: 'Cluster', allocateLoadBalancerNodePorts: true },
    { status: { loadBalancer: { ingress: [{ ip: '1.2.3' }, { hostname: '1.2.3.4' }, { ip: '1.2.3.4', ipMode: 'VIP' }] } } },
  );
  assert.deepEqual(render(validateServiceStatusUpdate(lb)), [
    'status.loadBalancer.ingress[0].ip: Invalid value: "1.2.3": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    'status.loadBalancer.ingress[1].hostname: Invalid value: "1.2.3.4": must be a DNS name, not an IP address',
  ]);
});

test('GetWarningsForService: ignored fields and the deprecated topology annotation', () => {
  assert.deepEqual(serviceWarnings(service()), []);
  const obj = service({ externalName: 'db.example.com' });
  obj.metadata.annotations = { 'service.kubernetes.io/topology-aware-hints': 'auto' };
  assert.deepEqual(serviceWarnings(obj), [
    'annotation service.kubernetes.io/topology-aware-hints is deprecated, please use service.kubernetes.io/topology-mode instead',
    'spec.externalName is ignored when spec.type is not "ExternalName"',
  ]);
  assert.deepEqual(serviceWarnings(service({ type: 'ExternalName', externalName: 'db.example.com', externalIPs: ['1.2.3.4'] })), [
    'spec.externalIPs is ignored when spec.type is "ExternalName"',
  ]);
});
