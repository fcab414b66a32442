import { type FieldError, fieldError, GoLiteral } from '../../api/errors.js';
import { isObject, objects, type KubeObject } from '../../api/types.js';
import {
  asLabelSelectorObject,
  type LabelSelectorValidationOptions,
  validateLabelSelector,
} from '../../selectors/label-selector-object.js';
import { isStrictSubnet, isValidPortName, isValidPortNum, parseCidr } from '../../validation/network.js';
import { specOf } from '../../api/json-fields.js';

/**
 * The NetworkPolicy checks of pkg/apis/networking/validation (ValidateNetworkPolicySpec) with Kubernetes'
 * messages and field paths: the pod selector, ports and port ranges, peers (their selectors and IP blocks) and
 * policy types.
 */

type Obj = Record<string, unknown>;

const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];
const POLICY_TYPES = ['Ingress', 'Egress'];
const INVALID_CIDR = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

function validatePort(port: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (port.protocol !== undefined && port.protocol !== null && !PROTOCOLS.includes(String(port.protocol))) {
    errs.push(fieldError.notSupported(`${path}.protocol`, port.protocol, PROTOCOLS));
  }
  const endPort = typeof port.endPort === 'number' ? port.endPort : undefined;
  const value = port.port;
  if (typeof value === 'number') {
    errs.push(...isValidPortNum(value).map((msg) => fieldError.invalid(`${path}.port`, value, msg)));
    if (endPort !== undefined) {
      if (endPort < value) errs.push(fieldError.invalid(`${path}.endPort`, endPort, 'must be greater than or equal to `port`'));
      errs.push(...isValidPortNum(endPort).map((msg) => fieldError.invalid(`${path}.endPort`, endPort, msg)));
    }
  } else if (typeof value === 'string') {
    if (endPort !== undefined) errs.push(fieldError.invalid(`${path}.endPort`, endPort, 'may not be specified when `port` is non-numeric'));
    errs.push(...isValidPortName(value).map((msg) => fieldError.invalid(`${path}.port`, value, msg)));
  } else if (endPort !== undefined) {
    errs.push(fieldError.invalid(`${path}.endPort`, endPort, 'may not be specified when `port` is not specified'));
  }
  return errs;
}

function validateIpBlock(block: Obj, path: string): FieldError[] {
  const cidrText = typeof block.cidr === 'string' ? block.cidr : '';
  if (cidrText === '') return [fieldError.required(`${path}.cidr`)];
  const cidr = parseCidr(cidrText);
  if (cidr === undefined) return [fieldError.invalid(`${path}.cidr`, cidrText, INVALID_CIDR)];
  const errs: FieldError[] = [];
  (Array.isArray(block.except) ? block.except : []).forEach((entry, i) => {
    const text = typeof entry === 'string' ? entry : '';
    const except = parseCidr(text);
    if (except === undefined) errs.push(fieldError.invalid(`${path}.except[${i}]`, text, INVALID_CIDR));
    else if (!isStrictSubnet(except, cidr))
      errs.push(fieldError.invalid(`${path}.except[${i}]`, text, 'must be a strict subset of `cidr`'));
  });
  return errs;
}

function validatePeer(peer: Obj, path: string, opts: LabelSelectorValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const ipBlock = isObject(peer.ipBlock) ? peer.ipBlock : undefined;
  const count = [peer.podSelector, peer.namespaceSelector, ipBlock].filter(isObject).length;
  for (const key of ['podSelector', 'namespaceSelector']) {
    errs.push(...validateLabelSelector(asLabelSelectorObject(peer[key]), `${path}.${key}`, opts));
  }
  if (ipBlock !== undefined) errs.push(...validateIpBlock(ipBlock, `${path}.ipBlock`));
  if (count === 0) errs.push(fieldError.required(path, 'must specify a peer'));
  else if (count > 1 && ipBlock !== undefined) errs.push(fieldError.forbidden(path, 'may not specify both ipBlock and another peer'));
  return errs;
}

function validateRules(rules: unknown, path: string, peersKey: 'from' | 'to', opts: LabelSelectorValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  objects(rules).forEach((rule, i) => {
    objects(rule.ports).forEach((port, j) => {
      errs.push(...validatePort(port, `${path}[${i}].ports[${j}]`));
    });
    objects(rule[peersKey]).forEach((peer, j) => {
      errs.push(...validatePeer(peer, `${path}[${i}].${peersKey}[${j}]`, opts));
    });
  });
  return errs;
}

/** ValidateNetworkPolicySpec. */
function validateSpec(spec: Obj, opts: LabelSelectorValidationOptions): FieldError[] {
  const errs = [
    ...validateLabelSelector(asLabelSelectorObject(spec.podSelector), 'spec.podSelector', opts),
    ...validateRules(spec.ingress, 'spec.ingress', 'from', opts),
    ...validateRules(spec.egress, 'spec.egress', 'to', opts),
  ];
  const types = Array.isArray(spec.policyTypes) ? spec.policyTypes.map(String) : [];
  if (types.length > POLICY_TYPES.length) {
    // Go prints the internal type's slice with %#v.
    const value = new GoLiteral(`[]networking.PolicyType{${types.map((t) => JSON.stringify(t)).join(', ')}}`);
    errs.push(fieldError.invalid('spec.policyTypes', value, 'may not specify more than two policyTypes'));
    return errs;
  }
  types.forEach((type, i) => {
    if (!POLICY_TYPES.includes(type)) errs.push(fieldError.notSupported(`spec.policyTypes[${i}]`, type, POLICY_TYPES));
  });
  return errs;
}

export function validateNetworkPolicy(obj: KubeObject): FieldError[] {
  return validateSpec(specOf(obj), {});
}

/** ValidationOptionsForNetworking: a stored pod selector with invalid values keeps them acceptable. */
export function validateNetworkPolicyUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const oldInvalid = validateLabelSelector(asLabelSelectorObject(specOf(old).podSelector), 'spec.podSelector').length > 0;
  return validateSpec(specOf(next), { allowInvalidLabelValueInSelector: oldInvalid });
}
