import { type FieldError, fieldError, GoLiteral } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { parseCidr } from '../../validation/network.js';
import { validateCidr } from '../../validation/ip-address.js';
import { isDns1123Label, isDns1123Subdomain, isQualifiedName, isValidLabelValue } from '../../validation/names.js';
import { validateNonnegativeQuantity, isWholeQuantity } from '../../validation/quantity.js';
import { INTEGER_RESOURCES, isExtendedResource } from './resource-names.js';
import { configKeyErrors } from './types/config-data.js';
import { text, specOf } from '../../api/json-fields.js';

/**
 * Node validation as pkg/apis/core/validation does it (ValidateNode on create, ValidateNodeUpdate on update and on
 * /status). Kubernetes reports taints under metadata.taints, and capacity keys as path children, not map keys.
 */

type Obj = Record<string, unknown>;

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

const items = (value: unknown): Obj[] => (Array.isArray(value) ? value.map((v) => (isObject(v) ? v : {})) : []);
const statusOf = (node: KubeObject): Obj => (isObject(node.status) ? node.status : {});

/** The internal podCIDRs: v1's singular podCIDR stands for the list when the list is empty. */
function podCidrs(spec: Obj): string[] {
  const list = Array.isArray(spec.podCIDRs) ? spec.podCIDRs.map(text) : [];
  if (list.length === 0 && text(spec.podCIDR) !== '') return [text(spec.podCIDR)];
  return list;
}

/** validateNodeTaints. */
function validateTaints(taints: Obj[]): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Map<string, Set<string>>();
  taints.forEach((taint, i) => {
    const path = `metadata.taints[${i}]`;
    const key = text(taint.key);
    const value = text(taint.value);
    const effect = text(taint.effect);
    for (const msg of isQualifiedName(key)) errs.push(fieldError.invalid(`${path}.key`, key, msg));
    const valueErrs = isValidLabelValue(value);
    if (valueErrs.length > 0) errs.push(fieldError.invalid(`${path}.value`, value, valueErrs.join(';')));
    if (effect === '') errs.push(fieldError.required(`${path}.effect`));
    else if (!TAINT_EFFECTS.includes(effect)) errs.push(fieldError.notSupported(`${path}.effect`, effect, TAINT_EFFECTS));
    const keys = seen.get(effect) ?? new Set<string>();
    if (keys.has(key)) {
      const literal = new GoLiteral(
        `core.Taint{Key:${JSON.stringify(key)}, Value:${JSON.stringify(value)}, Effect:${JSON.stringify(effect)}, TimeAdded:(*v1.Time)(nil)}`,
      );
      errs.push({ ...fieldError.duplicate(path, literal), detail: 'taints must be unique by key and effect pair' });
      return;
    }
    keys.add(key);
    seen.set(effect, keys);
  });
  return errs;
}

/** ValidateNodeResources: capacity and allocatable are non-negative, counts whole. */
function validateResources(node: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const status = statusOf(node);
  for (const field of ['capacity', 'allocatable']) {
    const list = isObject(status[field]) ? status[field] : {};
    for (const [name, quantity] of Object.entries(list)) {
      const path = `status.${field}.${name}`;
      errs.push(...validateNonnegativeQuantity(quantity, path));
      if ((INTEGER_RESOURCES.has(name) || isExtendedResource(name)) && !isWholeQuantity(quantity)) {
        errs.push(fieldError.invalid(path, String(quantity), 'must be an integer'));
      }
    }
  }
  return errs;
}

function validatePodCidrs(spec: Obj): FieldError[] {
  const cidrs = podCidrs(spec);
  const errs: FieldError[] = [];
  cidrs.forEach((cidr, i) => {
    errs.push(...validateCidr(`spec.podCIDRs[${i}]`, cidr));
  });
  if (cidrs.length > 1) {
    const families = cidrs.map((c) => parseCidr(c)?.family);
    const dualStack = families.includes('ipv4') && families.includes('ipv6');
    if (!dualStack || cidrs.length > 2)
      errs.push(fieldError.invalid('spec.podCIDRs', cidrs, 'may specify no more than one CIDR for each IP family'));
    const seen = new Set<string>();
    cidrs.forEach((cidr, i) => {
      if (seen.has(cidr)) errs.push(fieldError.duplicate(`spec.podCIDRs[${i}]`, cidr));
      seen.add(cidr);
    });
  }
  return errs;
}

/** validateConfigMapNodeConfigSource, with the spec's or the status's rules on uid and resourceVersion. */
function validateConfigMapSource(source: Obj, path: string, inStatus: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (inStatus) {
    if (text(source.uid) === '') errs.push(fieldError.required(`${path}.uid`, 'uid must be set in status'));
    if (text(source.resourceVersion) === '')
      errs.push(fieldError.required(`${path}.resourceVersion`, 'resourceVersion must be set in status'));
  } else {
    if (text(source.uid) !== '') errs.push(fieldError.forbidden(`${path}.uid`, 'uid must not be set in spec'));
    if (text(source.resourceVersion) !== '')
      errs.push(fieldError.forbidden(`${path}.resourceVersion`, 'resourceVersion must not be set in spec'));
  }
  const namespace = text(source.namespace);
  if (namespace === '') errs.push(fieldError.required(`${path}.namespace`, 'namespace must be set'));
  else for (const msg of isDns1123Label(namespace)) errs.push(fieldError.invalid(`${path}.namespace`, namespace, msg));
  const name = text(source.name);
  if (name === '') errs.push(fieldError.required(`${path}.name`, 'name must be set'));
  else for (const msg of isDns1123Subdomain(name)) errs.push(fieldError.invalid(`${path}.name`, name, msg));
  const key = text(source.kubeletConfigKey);
  if (key === '') errs.push(fieldError.required(`${path}.kubeletConfigKey`, 'kubeletConfigKey must be set'));
  else for (const msg of configKeyErrors(key)) errs.push(fieldError.invalid(`${path}.kubeletConfigKey`, key, msg));
  return errs;
}

/** validateNodeConfigSourceSpec / validateNodeConfigSourceStatus: exactly one source, a ConfigMap. */
function validateConfigSource(source: Obj, path: string, inStatus: boolean): FieldError[] {
  if (isObject(source.configMap)) return validateConfigMapSource(source.configMap, `${path}.configMap`, inStatus);
  return [
    fieldError.invalid(
      path,
      new GoLiteral('core.NodeConfigSource{ConfigMap:(*core.ConfigMapNodeConfigSource)(nil)}'),
      'exactly one reference subfield must be non-nil',
    ),
  ];
}

export function validateNode(node: KubeObject): FieldError[] {
  const spec = specOf(node);
  return [...validateTaints(items(spec.taints)), ...validateResources(node), ...validatePodCidrs(spec)];
}

const CIDR_CHANGE = 'node updates may not change podCIDR except from "" to valid';

export function validateNodeUpdate(node: KubeObject, old: KubeObject): FieldError[] {
  const spec = specOf(node);
  const oldSpec = specOf(old);
  const errs = validateResources(node);
  const seen = new Set<string>();
  items(statusOf(node).addresses).forEach((address, i) => {
    const type = text(address.type);
    const value = text(address.address);
    const key = JSON.stringify([type, value]);
    if (seen.has(key)) {
      const literal = new GoLiteral(`core.NodeAddress{Type:${JSON.stringify(type)}, Address:${JSON.stringify(value)}}`);
      errs.push(fieldError.duplicate(`status.addresses[${i}]`, literal));
    }
    seen.add(key);
  });
  // The controller manager may assign CIDRs once; after that they stay.
  const oldCidrs = podCidrs(oldSpec);
  const newCidrs = podCidrs(spec);
  if (oldCidrs.length > 0) {
    if (oldCidrs.length !== newCidrs.length) errs.push(fieldError.forbidden('spec.podCIDRs', CIDR_CHANGE));
    else
      for (const [i, cidr] of oldCidrs.entries()) if (cidr !== newCidrs[i]) errs.push(fieldError.forbidden('spec.podCIDRs', CIDR_CHANGE));
  }
  const oldProvider = text(oldSpec.providerID);
  if (oldProvider !== '' && oldProvider !== text(spec.providerID)) {
    errs.push(fieldError.forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
  }
  if (isObject(spec.configSource)) errs.push(...validateConfigSource(spec.configSource, 'spec.configSource', false));
  const config = statusOf(node).config;
  if (isObject(config)) {
    for (const which of ['assigned', 'active', 'lastKnownGood']) {
      if (isObject(config[which])) errs.push(...validateConfigSource(config[which], `status.config.${which}`, true));
    }
  }
  errs.push(...validateTaints(items(spec.taints)));
  if (text(spec.externalID) !== text(oldSpec.externalID)) errs.push(fieldError.forbidden('spec.externalID', 'may not be updated'));
  return errs;
}
