import { type FieldError, fieldError, GoLiteral } from '../../api/errors.js';
import { isObject, objects, type KubeObject } from '../../api/types.js';
import { isDns1035Label, isDns1123Subdomain, isValidPathSegmentName } from '../../validation/names.js';
import { isIPAddress, isValidPortName, isValidPortNum, isWildcardDns1123Subdomain } from '../../validation/network.js';
import { specOf } from '../../api/json-fields.js';

/**
 * The Ingress checks of pkg/apis/networking/validation (ValidateIngressCreate / ValidateIngressUpdate), with
 * Kubernetes' messages and field paths. Values invalid in the stored object stay allowed on update where
 * Kubernetes grandfathers them (TLS secret names, rules under wildcard hosts).
 */

type Obj = Record<string, unknown>;

const ANNOTATION_INGRESS_CLASS = 'kubernetes.io/ingress.class';
const INVALID_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_SUFFIXES = ['/..', '/.'];
const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];

interface Options {
  readonly allowInvalidSecretName: boolean;
  readonly allowInvalidWildcardHostRule: boolean;
}

const stringOf = (value: unknown): string => (typeof value === 'string' ? value : '');

function invalidEach(field: string, value: string, messages: readonly string[]): FieldError[] {
  return messages.map((msg) => fieldError.invalid(field, value, msg));
}

function validateBackendReference(ref: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (typeof ref.apiGroup === 'string') errs.push(...invalidEach(`${path}.apiGroup`, ref.apiGroup, isDns1123Subdomain(ref.apiGroup)));
  for (const key of ['kind', 'name']) {
    const value = stringOf(ref[key]);
    if (value === '') errs.push(fieldError.required(`${path}.${key}`));
    else errs.push(...invalidEach(`${path}.${key}`, value, isValidPathSegmentName(value)));
  }
  return errs;
}

function validateBackend(backend: Obj, path: string): FieldError[] {
  const resource = isObject(backend.resource) ? backend.resource : undefined;
  const service = isObject(backend.service) ? backend.service : undefined;
  if (resource !== undefined && service !== undefined)
    return [fieldError.invalid(path, '', 'cannot set both resource and service backends')];
  if (resource !== undefined) return validateBackendReference(resource, `${path}.resource`);
  if (service === undefined) return [fieldError.invalid(path, '', 'resource or service backend is required')];
  const errs: FieldError[] = [];
  const name = stringOf(service.name);
  if (name === '') errs.push(fieldError.required(`${path}.service.name`));
  else errs.push(...invalidEach(`${path}.service.name`, name, isDns1035Label(name)));
  const port = isObject(service.port) ? service.port : {};
  const portName = stringOf(port.name);
  const portNumber = typeof port.number === 'number' ? port.number : 0;
  if (portName !== '' && portNumber !== 0) errs.push(fieldError.invalid(path, '', 'cannot set both port name & port number'));
  else if (portName !== '') errs.push(...invalidEach(`${path}.service.port.name`, portName, isValidPortName(portName)));
  else if (portNumber !== 0) {
    errs.push(...isValidPortNum(portNumber).map((msg) => fieldError.invalid(`${path}.service.port.number`, portNumber, msg)));
  } else errs.push(fieldError.required(path, 'port name or number is required'));
  return errs;
}

function validatePath(entry: Obj, path: string): FieldError[] {
  const pathType = entry.pathType;
  if (typeof pathType !== 'string') return [fieldError.required(`${path}.pathType`, 'pathType must be specified')];
  const errs: FieldError[] = [];
  const value = stringOf(entry.path);
  const field = `${path}.path`;
  if (pathType === 'Exact' || pathType === 'Prefix') {
    if (!value.startsWith('/')) errs.push(fieldError.invalid(field, value, 'must be an absolute path'));
    for (const sequence of INVALID_SEQUENCES) {
      if (value.includes(sequence)) errs.push(fieldError.invalid(field, value, `must not contain '${sequence}'`));
    }
    for (const suffix of INVALID_SUFFIXES) {
      if (value.endsWith(suffix)) errs.push(fieldError.invalid(field, value, `cannot end with '${suffix}'`));
    }
  } else if (pathType === 'ImplementationSpecific') {
    if (value !== '' && !value.startsWith('/')) errs.push(fieldError.invalid(field, value, 'must be an absolute path'));
  } else {
    errs.push(fieldError.notSupported(`${path}.pathType`, pathType, PATH_TYPES));
  }
  errs.push(...validateBackend(isObject(entry.backend) ? entry.backend : {}, `${path}.backend`));
  return errs;
}

function validateRuleValue(rule: Obj, path: string): FieldError[] {
  if (!isObject(rule.http)) return [];
  const paths = objects(rule.http.paths);
  const errs: FieldError[] = paths.length === 0 ? [fieldError.required(`${path}.http.paths`)] : [];
  paths.forEach((entry, i) => {
    errs.push(...validatePath(entry, `${path}.http.paths[${i}]`));
  });
  return errs;
}

function validateRules(rules: readonly Obj[], opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  rules.forEach((rule, i) => {
    const path = `spec.rules[${i}]`;
    const host = stringOf(rule.host);
    const wildcard = host.includes('*');
    if (host !== '') {
      if (isIPAddress(host)) errs.push(fieldError.invalid(`${path}.host`, host, 'must be a DNS name, not an IP address'));
      errs.push(...invalidEach(`${path}.host`, host, wildcard ? isWildcardDns1123Subdomain(host) : isDns1123Subdomain(host)));
    }
    if (!wildcard || !opts.allowInvalidWildcardHostRule) errs.push(...validateRuleValue(rule, path));
  });
  return errs;
}

function validateTls(entries: readonly Obj[], opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  entries.forEach((tls, i) => {
    const hosts = Array.isArray(tls.hosts) ? tls.hosts.map(stringOf) : [];
    hosts.forEach((host, j) => {
      const check = host.includes('*') ? isWildcardDns1123Subdomain(host) : isDns1123Subdomain(host);
      errs.push(...invalidEach(`spec.tls[${i}].hosts[${j}]`, host, check));
    });
    const secretName = stringOf(tls.secretName);
    if (!opts.allowInvalidSecretName && secretName !== '') {
      errs.push(...invalidEach(`spec.tls[${i}].secretName`, secretName, isDns1123Subdomain(secretName)));
    }
  });
  return errs;
}

function validateSpec(obj: KubeObject, opts: Options): FieldError[] {
  const spec = specOf(obj);
  const rules = objects(spec.rules);
  const errs: FieldError[] = [];
  const defaultBackend = isObject(spec.defaultBackend) ? spec.defaultBackend : undefined;
  if (rules.length === 0 && defaultBackend === undefined) {
    // Go prints the internal type's rules slice with %#v.
    const rulesValue = new GoLiteral(Array.isArray(spec.rules) ? '[]networking.IngressRule{}' : '[]networking.IngressRule(nil)');
    errs.push(fieldError.invalid('spec', rulesValue, 'either `defaultBackend` or `rules` must be specified'));
  }
  if (defaultBackend !== undefined) errs.push(...validateBackend(defaultBackend, 'spec.defaultBackend'));
  errs.push(...validateRules(rules, opts));
  errs.push(...validateTls(objects(spec.tls), opts));
  if (typeof spec.ingressClassName === 'string') {
    errs.push(...invalidEach('spec.ingressClassName', spec.ingressClassName, isDns1123Subdomain(spec.ingressClassName)));
  }
  return errs;
}

export function validateIngressCreate(obj: KubeObject): FieldError[] {
  const errs = validateSpec(obj, { allowInvalidSecretName: false, allowInvalidWildcardHostRule: false });
  const annotation = obj.metadata.annotations?.[ANNOTATION_INGRESS_CLASS];
  const className = specOf(obj).ingressClassName;
  if (annotation !== undefined && typeof className === 'string' && annotation !== className) {
    errs.push(
      fieldError.invalid(`annotations.${ANNOTATION_INGRESS_CLASS}`, annotation, 'must match `ingressClassName` when both are specified'),
    );
  }
  return errs;
}

/** ValidateIngressLoadBalancerStatus: IP ingress points carry an IP, DNS ones a DNS name that is no IP. */
function validateLoadBalancerStatus(obj: KubeObject): FieldError[] {
  const status = isObject(obj.status) && isObject(obj.status.loadBalancer) ? obj.status.loadBalancer : {};
  const errs: FieldError[] = [];
  objects(status.ingress).forEach((point, i) => {
    const path = `status.loadBalancer.ingress[${i}]`;
    const ip = stringOf(point.ip);
    const hostname = stringOf(point.hostname);
    if (ip !== '' && !isIPAddress(ip))
      errs.push(fieldError.invalid(`${path}.ip`, ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
    if (hostname !== '') {
      errs.push(...invalidEach(`${path}.hostname`, hostname, isDns1123Subdomain(hostname)));
      if (isIPAddress(hostname)) errs.push(fieldError.invalid(`${path}.hostname`, hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}

/** Spec updates keep the stored status and status updates the stored spec, so checking both covers either write. */
export function validateIngressUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const oldSpec = specOf(old);
  const allowInvalidSecretName = objects(oldSpec.tls).some((tls) => {
    const name = stringOf(tls.secretName);
    return name !== '' && isDns1123Subdomain(name).length > 0;
  });
  const allowInvalidWildcardHostRule = objects(oldSpec.rules).some(
    (rule) => stringOf(rule.host).includes('*') && validateRuleValue(rule, '').length > 0,
  );
  return [...validateSpec(next, { allowInvalidSecretName, allowInvalidWildcardHostRule }), ...validateLoadBalancerStatus(next)];
}
