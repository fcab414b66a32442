import { type FieldError, fieldError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { parseIp, validateNonSpecialIp } from '../../validation/ip-address.js';
import { ENDPOINT_IP_OPTIONS } from '../core-v1/endpoints-validation.js';
import { validateLabels } from '../../validation/labels.js';
import { isDns1123Label, isDns1123Subdomain, isQualifiedName, isValidLabelValue } from '../../validation/names.js';
import { text } from '../../api/json-fields.js';

/** EndpointSlice validation as pkg/apis/discovery/validation does it (ValidateEndpointSliceCreate / Update). */

type Obj = Record<string, unknown>;

const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const MAX_ENDPOINTS = 1000;
const MAX_ADDRESSES = 100;
const MAX_PORTS = 100;
const MAX_TOPOLOGY_LABELS = 16;
const MAX_ZONE_HINTS = 8;

const items = (value: unknown): Obj[] => (Array.isArray(value) ? value.map((v) => (isObject(v) ? v : {})) : []);
const invalid = (field: string, value: unknown, msgs: string[]): FieldError[] => msgs.map((m) => fieldError.invalid(field, value, m));

/** field.TooMany. */
function tooMany(field: string, actual: number, max: number): FieldError {
  return { type: 'FieldValueTooMany', field, value: actual, detail: `must have at most ${max} items`, hasValue: true };
}

/** validation.IsFullyQualifiedDomainName: a subdomain of at least two labels, a trailing dot allowed. */
function validateFqdn(field: string, value: string): FieldError[] {
  if (value === '') return [fieldError.required(field)];
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  const subdomainErrs = isDns1123Subdomain(name);
  if (subdomainErrs.length > 0) return [fieldError.invalid(field, name, subdomainErrs.join(','))];
  const labels = name.split('.');
  if (labels.length < 2) return [fieldError.invalid(field, name, 'should be a domain with at least two segments separated by dots')];
  for (const label of labels) {
    const labelErrs = isDns1123Label(label);
    if (labelErrs.length > 0) return [fieldError.invalid(field, label, labelErrs.join(','))];
  }
  return [];
}

function validateAddress(addressType: string, address: string, field: string): FieldError[] {
  if (addressType === 'IPv4' || addressType === 'IPv6') {
    const ip = parseIp(address);
    const errs = ip?.family === addressType ? [] : [fieldError.invalid(field, address, `must be a valid ${addressType} address`)];
    return [...errs, ...validateNonSpecialIp(address, field, ENDPOINT_IP_OPTIONS)];
  }
  // Addresses of an unknown type are left alone, as Kubernetes leaves them.
  return addressType === 'FQDN' ? validateFqdn(field, address) : [];
}

function validateHints(hints: Obj, path: string): FieldError[] {
  const zones = items(hints.forZones);
  if (zones.length > MAX_ZONE_HINTS) return [tooMany(`${path}.forZones`, zones.length, MAX_ZONE_HINTS)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  zones.forEach((zone, i) => {
    const field = `${path}.forZones[${i}].name`;
    const name = text(zone.name);
    if (seen.has(name)) errs.push(fieldError.duplicate(field, name));
    else seen.add(name);
    errs.push(...invalid(field, name, isValidLabelValue(name)));
  });
  return errs;
}

function validateEndpoints(slice: KubeObject, addressType: string): FieldError[] {
  const endpoints = items(slice.endpoints);
  if (endpoints.length > MAX_ENDPOINTS) return [tooMany('endpoints', endpoints.length, MAX_ENDPOINTS)];
  const errs: FieldError[] = [];
  endpoints.forEach((endpoint, i) => {
    const path = `endpoints[${i}]`;
    const addresses = Array.isArray(endpoint.addresses) ? endpoint.addresses.map(text) : [];
    if (addresses.length === 0) errs.push(fieldError.required(`${path}.addresses`, 'must contain at least 1 address'));
    else if (addresses.length > MAX_ADDRESSES) errs.push(tooMany(`${path}.addresses`, addresses.length, MAX_ADDRESSES));
    addresses.forEach((address, j) => {
      errs.push(...validateAddress(addressType, address, `${path}.addresses[${j}]`));
    });
    if (typeof endpoint.nodeName === 'string')
      errs.push(...invalid(`${path}.nodeName`, endpoint.nodeName, isDns1123Subdomain(endpoint.nodeName)));
    const topology = isObject(endpoint.deprecatedTopology) ? endpoint.deprecatedTopology : {};
    const topologyCount = Object.keys(topology).length;
    if (topologyCount > MAX_TOPOLOGY_LABELS) errs.push(tooMany(`${path}.deprecatedTopology`, topologyCount, MAX_TOPOLOGY_LABELS));
    errs.push(...validateLabels(topology, `${path}.deprecatedTopology`));
    if (typeof endpoint.hostname === 'string')
      errs.push(...invalid(`${path}.hostname`, endpoint.hostname, isDns1123Label(endpoint.hostname)));
    if (isObject(endpoint.hints)) errs.push(...validateHints(endpoint.hints, `${path}.hints`));
  });
  return errs;
}

function validatePorts(slice: KubeObject): FieldError[] {
  const ports = items(slice.ports);
  if (ports.length > MAX_PORTS) return [tooMany('ports', ports.length, MAX_PORTS)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const path = `ports[${i}]`;
    const name = text(port.name);
    if (name !== '') errs.push(...invalid(`${path}.name`, name, isDns1123Label(name)));
    if (names.has(name)) errs.push(fieldError.duplicate(`${path}.name`, name));
    else names.add(name);
    const protocol = port.protocol;
    if (protocol === undefined || protocol === null) errs.push(fieldError.required(`${path}.protocol`));
    else if (!PROTOCOLS.includes(text(protocol))) errs.push(fieldError.notSupported(`${path}.protocol`, protocol, PROTOCOLS));
    if (typeof port.appProtocol === 'string')
      errs.push(...invalid(`${path}.appProtocol`, port.appProtocol, isQualifiedName(port.appProtocol)));
  });
  return errs;
}

/** ValidateEndpointSlice (ObjectMeta is the store's). */
export function validateEndpointSlice(slice: KubeObject): FieldError[] {
  const addressType = text(slice.addressType);
  const errs: FieldError[] = [];
  if (addressType === '') errs.push(fieldError.required('addressType'));
  else if (!ADDRESS_TYPES.includes(addressType)) errs.push(fieldError.notSupported('addressType', addressType, ADDRESS_TYPES));
  return [...errs, ...validateEndpoints(slice, addressType), ...validatePorts(slice)];
}

/** ValidateEndpointSliceUpdate: the object's rules, and addressType never changes. */
export function validateEndpointSliceUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateEndpointSlice(next);
  if (text(next.addressType) !== text(old.addressType))
    errs.push(fieldError.invalid('addressType', text(next.addressType), 'field is immutable'));
  return errs;
}
