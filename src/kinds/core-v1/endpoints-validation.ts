import { type FieldError, fieldError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { validateIp, validateNonSpecialIp } from '../../validation/ip-address.js';
import { isDns1123Label, isDns1123Subdomain, isQualifiedName } from '../../validation/names.js';
import { isValidPortNum } from '../../validation/network.js';
import { text } from '../../api/json-fields.js';

/** Endpoints validation as pkg/apis/core/validation does it (ValidateEndpoints, used on create and update). */

type Obj = Record<string, unknown>;

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

/**
 * Kubernetes refuses loopback endpoint addresses. Cascade accepts them: a test server's backends (aggregated API
 * servers reached through their Service's endpoints, the server's own `kubernetes` Endpoints) listen on loopback,
 * where nothing else could reach them.
 */
export const ENDPOINT_IP_OPTIONS = { allowLoopback: true };

const items = (value: unknown): Obj[] => (Array.isArray(value) ? value.map((v) => (isObject(v) ? v : {})) : []);
const invalid = (field: string, value: unknown, msgs: string[]): FieldError[] => msgs.map((m) => fieldError.invalid(field, value, m));

/** validateEndpointAddress. */
function validateAddress(address: Obj, path: string): FieldError[] {
  const ip = text(address.ip);
  const errs = validateIp(`${path}.ip`, ip);
  const hostname = text(address.hostname);
  if (hostname !== '') errs.push(...invalid(`${path}.hostname`, hostname, isDns1123Label(hostname)));
  if (typeof address.nodeName === 'string')
    errs.push(...invalid(`${path}.nodeName`, address.nodeName, isDns1123Subdomain(address.nodeName)));
  errs.push(...validateNonSpecialIp(ip, `${path}.ip`, ENDPOINT_IP_OPTIONS));
  return errs;
}

/** validateEndpointPort. */
function validatePort(port: Obj, requireName: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = text(port.name);
  if (requireName && name === '') errs.push(fieldError.required(`${path}.name`));
  else if (name !== '') errs.push(...invalid(`${path}.name`, name, isDns1123Label(name)));
  const number = typeof port.port === 'number' ? port.port : 0;
  errs.push(...invalid(`${path}.port`, number, isValidPortNum(number)));
  const protocol = text(port.protocol);
  if (protocol === '') errs.push(fieldError.required(`${path}.protocol`));
  else if (!PROTOCOLS.includes(protocol)) errs.push(fieldError.notSupported(`${path}.protocol`, protocol, PROTOCOLS));
  if (typeof port.appProtocol === 'string')
    errs.push(...invalid(`${path}.appProtocol`, port.appProtocol, isQualifiedName(port.appProtocol)));
  return errs;
}

/** ValidateEndpoints (validateEndpointSubsets); the update validation is the same. */
export function validateEndpoints(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  items(obj.subsets).forEach((subset, i) => {
    const path = `subsets[${i}]`;
    const addresses = items(subset.addresses);
    const notReady = items(subset.notReadyAddresses);
    // A headless Service's endpoints may have no ports, but every subset needs an address.
    if (addresses.length === 0 && notReady.length === 0)
      errs.push(fieldError.required(path, 'must specify `addresses` or `notReadyAddresses`'));
    addresses.forEach((a, j) => {
      errs.push(...validateAddress(a, `${path}.addresses[${j}]`));
    });
    notReady.forEach((a, j) => {
      errs.push(...validateAddress(a, `${path}.notReadyAddresses[${j}]`));
    });
    const ports = items(subset.ports);
    ports.forEach((p, j) => {
      errs.push(...validatePort(p, ports.length > 1, `${path}.ports[${j}]`));
    });
  });
  return errs;
}
