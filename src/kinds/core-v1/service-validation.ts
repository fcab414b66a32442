import { type FieldError, fieldError, GoLiteral } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { validateCidr, validateIp, validateNonSpecialIp } from '../../validation/ip-address.js';
import { validateLabels } from '../../validation/labels.js';
import { isDns1123Label, isDns1123Subdomain, isQualifiedName } from '../../validation/names.js';
import { isValidPortName, isValidPortNum } from '../../validation/network.js';
import {
  isHeadless,
  stringList,
  textOf,
  validateClusterIpFields,
  validateClusterIpsUpdate,
  validateIpFamiliesUpdate,
} from './service-ip-validation.js';
import { specOf } from '../../api/json-fields.js';

/**
 * Service validation as pkg/apis/core/validation does it (ValidateService, ValidateServiceUpdate,
 * ValidateServiceStatusUpdate), in Kubernetes' order so the message lists errors as kube-apiserver does.
 */

type Obj = Record<string, unknown>;

const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const SESSION_AFFINITIES = ['ClientIP', 'None'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const TRAFFIC_POLICIES = ['Cluster', 'Local'];
const IP_MODES = ['Proxy', 'VIP'];
const MAX_CLIENT_IP_AFFINITY_SECONDS = 86400;
const TOPOLOGY_HINTS_ANNOTATION = 'service.kubernetes.io/topology-aware-hints';
const TOPOLOGY_MODE_ANNOTATION = 'service.kubernetes.io/topology-mode';
const SOURCE_RANGES_ANNOTATION = 'service.beta.kubernetes.io/load-balancer-source-ranges';
const ONLY_LOAD_BALANCER = "may only be used when `type` is 'LoadBalancer'";

const portsOf = (spec: Obj): Obj[] => (Array.isArray(spec.ports) ? spec.ports.map((p) => (isObject(p) ? p : {})) : []);
const numberOf = (value: unknown): number => (typeof value === 'number' ? value : 0);

export const externallyAccessible = (spec: Obj): boolean =>
  spec.type === 'LoadBalancer' || spec.type === 'NodePort' || (spec.type === 'ClusterIP' && stringList(spec.externalIPs).length > 0);
export const needsHealthCheck = (spec: Obj): boolean => spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';

const messages = (field: string, value: unknown, msgs: string[]): FieldError[] => msgs.map((m) => fieldError.invalid(field, value, m));

/** ValidatePortNumOrName. */
function validatePortNumOrName(value: unknown, field: string): FieldError[] {
  if (typeof value === 'string') return messages(field, value, isValidPortName(value));
  return messages(field, numberOf(value), isValidPortNum(numberOf(value)));
}

/** validateServicePort. */
function validateServicePort(port: Obj, requireName: boolean, names: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = textOf(port.name);
  if (requireName && name === '') errs.push(fieldError.required(`${path}.name`));
  else if (name !== '') {
    errs.push(...messages(`${path}.name`, name, isDns1123Label(name)));
    if (names.has(name)) errs.push(fieldError.duplicate(`${path}.name`, name));
    else names.add(name);
  }
  errs.push(...messages(`${path}.port`, numberOf(port.port), isValidPortNum(numberOf(port.port))));
  const protocol = textOf(port.protocol);
  if (protocol === '') errs.push(fieldError.required(`${path}.protocol`));
  else if (!PROTOCOLS.includes(protocol)) errs.push(fieldError.notSupported(`${path}.protocol`, protocol, PROTOCOLS));
  errs.push(...validatePortNumOrName(port.targetPort, `${path}.targetPort`));
  if (typeof port.appProtocol === 'string')
    errs.push(...messages(`${path}.appProtocol`, port.appProtocol, isQualifiedName(port.appProtocol)));
  return errs;
}

/** Go's %#v of the core.ServicePort key Kubernetes reports a duplicate (protocol, port) pair with. */
function portKeyLiteral(protocol: string, port: number): GoLiteral {
  return new GoLiteral(
    `core.ServicePort{Name:"", Protocol:${JSON.stringify(protocol)}, AppProtocol:(*string)(nil), Port:${port}, ` +
      'TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
  );
}

/** validateClientIPAffinityConfig. */
function validateClientIpAffinity(config: unknown): FieldError[] {
  const path = 'spec.sessionAffinityConfig';
  const why = 'when session affinity type is ClientIP';
  if (!isObject(config)) return [fieldError.required(path, why)];
  if (!isObject(config.clientIP)) return [fieldError.required(`${path}.clientIP`, why)];
  const timeout = config.clientIP.timeoutSeconds;
  if (typeof timeout !== 'number') return [fieldError.required(`${path}.clientIP.timeoutSeconds`, why)];
  if (timeout <= 0 || timeout > MAX_CLIENT_IP_AFFINITY_SECONDS) {
    return [
      fieldError.invalid(
        `${path}.clientIP.timeoutSeconds`,
        timeout,
        `must be greater than 0 and less than ${MAX_CLIENT_IP_AFFINITY_SECONDS}`,
      ),
    ];
  }
  return [];
}

function validateTypeSpecifics(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const headless = isHeadless(spec);
  if (spec.type === 'LoadBalancer' || spec.type === 'NodePort') {
    if (headless) errs.push(fieldError.invalid('spec.clusterIPs[0]', 'None', `may not be set to 'None' for ${spec.type} services`));
  } else if (spec.type === 'ExternalName') {
    if (stringList(spec.clusterIPs).length > 0)
      errs.push(fieldError.forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
    if (stringList(spec.ipFamilies).length > 0)
      errs.push(fieldError.forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
    if (spec.ipFamilyPolicy !== undefined && spec.ipFamilyPolicy !== null) {
      errs.push(fieldError.forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
    }
    // A CNAME may end in a dot to say it is fully qualified.
    const cname = textOf(spec.externalName).replace(/\.$/, '');
    if (cname === '') errs.push(fieldError.required('spec.externalName'));
    else errs.push(...messages('spec.externalName', cname, isDns1123Subdomain(cname)));
  }
  return errs;
}

function validateDuplicatePorts(ports: Obj[]): FieldError[] {
  const errs: FieldError[] = [];
  const nodePorts = new Set<string>();
  ports.forEach((port, i) => {
    const nodePort = numberOf(port.nodePort);
    if (nodePort === 0) return;
    const key = `${textOf(port.protocol)}/${nodePort}`;
    if (nodePorts.has(key)) errs.push(fieldError.duplicate(`spec.ports[${i}].nodePort`, nodePort));
    nodePorts.add(key);
  });
  const servicePorts = new Set<string>();
  ports.forEach((port, i) => {
    const key = `${textOf(port.protocol)}/${numberOf(port.port)}`;
    if (servicePorts.has(key))
      errs.push(fieldError.duplicate(`spec.ports[${i}]`, portKeyLiteral(textOf(port.protocol), numberOf(port.port))));
    servicePorts.add(key);
  });
  return errs;
}

function validateSourceRanges(spec: Obj, annotations: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const ranges = stringList(spec.loadBalancerSourceRanges);
  if (ranges.length > 0) {
    // Kubernetes names the field with a capital L here.
    const path = 'spec.LoadBalancerSourceRanges';
    if (spec.type !== 'LoadBalancer') errs.push(fieldError.forbidden(path, ONLY_LOAD_BALANCER));
    ranges.forEach((value, i) => {
      errs.push(...validateCidr(`${path}[${i}]`, value.trim()));
    });
  } else if (typeof annotations[SOURCE_RANGES_ANNOTATION] === 'string') {
    const path = `metadata.annotations[${SOURCE_RANGES_ANNOTATION}]`;
    if (spec.type !== 'LoadBalancer') errs.push(fieldError.forbidden(path, ONLY_LOAD_BALANCER));
    const value = annotations[SOURCE_RANGES_ANNOTATION].trim();
    if (value !== '') for (const cidr of value.split(',')) errs.push(...validateCidr(path, cidr.trim()));
  }
  return errs;
}

/** validateLoadBalancerClassField; `old` is given on update. */
function validateLoadBalancerClass(spec: Obj, old: Obj | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const value = spec.loadBalancerClass;
  const set = typeof value === 'string';
  if (old !== undefined && old.type === 'LoadBalancer' && spec.type === 'LoadBalancer') {
    const oldValue = typeof old.loadBalancerClass === 'string' ? old.loadBalancerClass : undefined;
    if (oldValue !== (set ? value : undefined))
      errs.push(fieldError.invalid('spec.loadBalancerClass', set ? value : null, 'may not change once set'));
  }
  if (spec.type === 'LoadBalancer') {
    if (set) errs.push(...messages('spec.loadBalancerClass', value, isQualifiedName(value)));
  } else if (set) {
    errs.push(fieldError.forbidden('spec.loadBalancerClass', ONLY_LOAD_BALANCER));
  }
  return errs;
}

/**
 * validateServiceExternalTrafficPolicy. A LoadBalancer Service with the Local policy needs a health check node
 * port, which kube-apiserver allocates before validating; Cascade allocates no node ports, so a missing one is
 * not reported here.
 */
function validateExternalTrafficPolicy(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const policy = textOf(spec.externalTrafficPolicy);
  if (!externallyAccessible(spec)) {
    if (policy !== '')
      errs.push(fieldError.invalid('spec.externalTrafficPolicy', policy, 'may only be set for externally-accessible services'));
  } else if (policy === '') {
    errs.push(fieldError.required('spec.externalTrafficPolicy'));
  } else if (!TRAFFIC_POLICIES.includes(policy)) {
    errs.push(fieldError.notSupported('spec.externalTrafficPolicy', policy, TRAFFIC_POLICIES));
  }
  const healthCheckNodePort = numberOf(spec.healthCheckNodePort);
  if (!needsHealthCheck(spec)) {
    if (healthCheckNodePort !== 0) {
      errs.push(
        fieldError.invalid(
          'spec.healthCheckNodePort',
          healthCheckNodePort,
          "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
        ),
      );
    }
  } else if (healthCheckNodePort !== 0) {
    errs.push(...messages('spec.healthCheckNodePort', healthCheckNodePort, isValidPortNum(healthCheckNodePort)));
  }
  return errs;
}

function validateInternalTrafficPolicy(spec: Obj): FieldError[] {
  const policy = spec.internalTrafficPolicy;
  if (policy === undefined || policy === null) {
    // Not required of ExternalName Services: objects stored before the check existed stay valid.
    return spec.type === 'ClusterIP' || spec.type === 'NodePort' || spec.type === 'LoadBalancer'
      ? [fieldError.required('spec.internalTrafficPolicy')]
      : [];
  }
  return TRAFFIC_POLICIES.includes(textOf(policy)) ? [] : [fieldError.notSupported('spec.internalTrafficPolicy', policy, TRAFFIC_POLICIES)];
}

function validateTrafficDistribution(spec: Obj): FieldError[] {
  const value = spec.trafficDistribution;
  if (value === undefined || value === null || value === 'PreferClose') return [];
  return [fieldError.notSupported('spec.trafficDistribution', value, ['PreferClose'])];
}

/** ValidateService (ObjectMeta is the store's). */
function validateServiceSpec(obj: KubeObject): FieldError[] {
  const spec = specOf(obj);
  const annotations: Obj = isObject(obj.metadata.annotations) ? obj.metadata.annotations : {};
  const errs: FieldError[] = [];
  const hints = annotations[TOPOLOGY_HINTS_ANNOTATION];
  const mode = annotations[TOPOLOGY_MODE_ANNOTATION];
  if (typeof hints === 'string' && typeof mode === 'string' && hints !== mode) {
    errs.push(
      fieldError.invalid(
        `metadata.annotations[${TOPOLOGY_MODE_ANNOTATION}]`,
        mode,
        `must match annotations[${TOPOLOGY_HINTS_ANNOTATION}] when both are specified`,
      ),
    );
  }
  const ports = portsOf(spec);
  if (ports.length === 0 && !isHeadless(spec) && spec.type !== 'ExternalName') errs.push(fieldError.required('spec.ports'));
  errs.push(...validateTypeSpecifics(spec));
  const names = new Set<string>();
  ports.forEach((port, i) => {
    errs.push(...validateServicePort(port, ports.length > 1, names, `spec.ports[${i}]`));
  });
  if (spec.selector !== undefined && spec.selector !== null) errs.push(...validateLabels(spec.selector, 'spec.selector'));
  const affinity = textOf(spec.sessionAffinity);
  if (affinity === '') errs.push(fieldError.required('spec.sessionAffinity'));
  else if (!SESSION_AFFINITIES.includes(affinity)) errs.push(fieldError.notSupported('spec.sessionAffinity', affinity, SESSION_AFFINITIES));
  if (affinity === 'ClientIP') errs.push(...validateClientIpAffinity(spec.sessionAffinityConfig));
  else if (affinity === 'None' && spec.sessionAffinityConfig !== undefined && spec.sessionAffinityConfig !== null) {
    errs.push(fieldError.forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None'));
  }
  errs.push(...validateClusterIpFields(spec));
  stringList(spec.externalIPs).forEach((ip, i) => {
    const ipErrs = validateIp(`spec.externalIPs[${i}]`, ip);
    errs.push(...(ipErrs.length > 0 ? ipErrs : validateNonSpecialIp(ip, `spec.externalIPs[${i}]`)));
  });
  const type = textOf(spec.type);
  if (type === '') errs.push(fieldError.required('spec.type'));
  else if (!SERVICE_TYPES.includes(type)) errs.push(fieldError.notSupported('spec.type', type, SERVICE_TYPES));
  if (type === 'ClusterIP') {
    ports.forEach((port, i) => {
      if (numberOf(port.nodePort) !== 0)
        errs.push(fieldError.forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
    });
  }
  errs.push(...validateDuplicatePorts(ports));
  errs.push(...validateSourceRanges(spec, annotations));
  const allocate = spec.allocateLoadBalancerNodePorts;
  if (allocate !== undefined && allocate !== null && type !== 'LoadBalancer') {
    errs.push(fieldError.forbidden('spec.allocateLoadBalancerNodePorts', ONLY_LOAD_BALANCER));
  }
  // Kubernetes reports this one without the spec prefix.
  if (type === 'LoadBalancer' && (allocate === undefined || allocate === null))
    errs.push(fieldError.required('allocateLoadBalancerNodePorts'));
  errs.push(...validateLoadBalancerClass(spec, undefined));
  errs.push(...validateExternalTrafficPolicy(spec));
  errs.push(...validateInternalTrafficPolicy(spec));
  errs.push(...validateTrafficDistribution(spec));
  return errs;
}

export function validateService(obj: KubeObject): FieldError[] {
  return validateServiceSpec(obj);
}

/** ValidateServiceUpdate: the primary clusterIP and family stay, then the whole object is validated again. */
export function validateServiceUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const spec = specOf(next);
  const oldSpec = specOf(old);
  const errs = [...validateClusterIpsUpdate(spec, oldSpec), ...validateIpFamiliesUpdate(spec, oldSpec)];
  // validateLoadBalancerClassField runs for the update first; its format checks come again with the object's.
  errs.push(...validateLoadBalancerClass(spec, oldSpec));
  if (needsHealthCheck(oldSpec) && needsHealthCheck(spec) && numberOf(spec.healthCheckNodePort) !== numberOf(oldSpec.healthCheckNodePort)) {
    errs.push(fieldError.forbidden('spec.healthCheckNodePort', 'field is immutable'));
  }
  return [...errs, ...validateServiceSpec(next)];
}

/** ValidateServiceStatusUpdate → ValidateLoadBalancerStatus (ipMode is not required: Cascade does not default it). */
export function validateServiceStatusUpdate(next: KubeObject): FieldError[] {
  const spec = specOf(next);
  const status = isObject(next.status) ? next.status : {};
  const loadBalancer = isObject(status.loadBalancer) ? status.loadBalancer : {};
  const ingress = Array.isArray(loadBalancer.ingress) ? loadBalancer.ingress : [];
  const path = 'status.loadBalancer.ingress';
  if (spec.type !== 'LoadBalancer' && ingress.length > 0)
    return [fieldError.forbidden(path, "may only be used when `spec.type` is 'LoadBalancer'")];
  const errs: FieldError[] = [];
  ingress.forEach((entry, i) => {
    const item: Obj = isObject(entry) ? entry : {};
    const ip = textOf(item.ip);
    if (ip !== '') errs.push(...validateIp(`${path}[${i}].ip`, ip));
    const ipMode = item.ipMode;
    if (ipMode !== undefined && ipMode !== null) {
      if (ip === '') errs.push(fieldError.forbidden(`${path}[${i}].ipMode`, 'may not be specified when `ip` is not set'));
      else if (!IP_MODES.includes(textOf(ipMode))) errs.push(fieldError.notSupported(`${path}[${i}].ipMode`, ipMode, IP_MODES));
    }
    const hostname = textOf(item.hostname);
    if (hostname !== '') {
      errs.push(...messages(`${path}[${i}].hostname`, hostname, isDns1123Subdomain(hostname)));
      if (validateIp('', hostname).length === 0) {
        errs.push(fieldError.invalid(`${path}[${i}].hostname`, hostname, 'must be a DNS name, not an IP address'));
      }
    }
  });
  return errs;
}

/** GetWarningsForService: fields Kubernetes accepts but ignores, and the deprecated topology annotation. */
export function serviceWarnings(obj: KubeObject): string[] {
  const spec = specOf(obj);
  const warnings: string[] = [];
  if (isObject(obj.metadata.annotations) && TOPOLOGY_HINTS_ANNOTATION in obj.metadata.annotations) {
    warnings.push(`annotation ${TOPOLOGY_HINTS_ANNOTATION} is deprecated, please use ${TOPOLOGY_MODE_ANNOTATION} instead`);
  }
  if (spec.type === 'ExternalName' && stringList(spec.externalIPs).length > 0)
    warnings.push('spec.externalIPs is ignored when spec.type is "ExternalName"');
  if (spec.type !== 'ExternalName' && textOf(spec.externalName) !== '')
    warnings.push('spec.externalName is ignored when spec.type is not "ExternalName"');
  return warnings;
}
