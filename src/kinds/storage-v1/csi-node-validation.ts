import { isDeepStrictEqual } from 'node:util';
import { type FieldError, fieldError, GoLiteral } from '../../api/errors.js';
import { isObject, type KubeObject, objects } from '../../api/types.js';
import { goQuote } from '../../util/go-quote.js';
import { isQualifiedName } from '../../validation/names.js';
import { validateCsiDriverName } from '../core-v1/persistent-volume-source-validation.js';
import { text } from '../../api/json-fields.js';

/**
 * CSINode validation of pkg/apis/storage/validation (ValidateCSINode, ValidateCSINodeUpdate) as 1.32 runs it: each
 * driver's name, node ID (at most 256 characters: the strategy allows long IDs), allocatable count and topology
 * keys, unique driver names; a registered driver may not change.
 */

type Obj = Record<string, unknown>;

const NODE_ID_MAX_LENGTH = 256;

const driversOf = (node: KubeObject): Obj[] => (isObject(node.spec) ? objects(node.spec.drivers) : []);

function validateDriver(driver: Obj, path: string, names: Set<string>): FieldError[] {
  const name = text(driver.name);
  const nodeID = text(driver.nodeID);
  const errs = validateCsiDriverName(name, `${path}.name`);
  // Kubernetes passes the (empty) ID as the detail of its Required error.
  if (nodeID === '') errs.push(fieldError.required(`${path}.nodeID`));
  if (nodeID.length > NODE_ID_MAX_LENGTH)
    errs.push(fieldError.invalid(`${path}.nodeID`, nodeID, `must be ${NODE_ID_MAX_LENGTH} characters or less`));
  const count = isObject(driver.allocatable) ? driver.allocatable.count : undefined;
  if (typeof count === 'number' && count < 0)
    errs.push(fieldError.invalid(`${path}.allocatable.count`, count, 'must be greater than or equal to 0'));
  if (names.has(name)) errs.push(fieldError.duplicate(`${path}.name`, name));
  names.add(name);
  const keys = new Set<string>();
  for (const entry of Array.isArray(driver.topologyKeys) ? driver.topologyKeys : []) {
    const key = text(entry);
    // The topology key errors name the driver, not the key.
    if (key === '') errs.push(fieldError.required(path));
    if (keys.has(key)) errs.push(fieldError.duplicate(path, key));
    keys.add(key);
    errs.push(...isQualifiedName(key).map((msg) => fieldError.invalid(path, key, msg)));
  }
  return errs;
}

export function validateCSINode(node: KubeObject): FieldError[] {
  const names = new Set<string>();
  return driversOf(node).flatMap((driver, i) => validateDriver(driver, `spec.drivers[${i}]`, names));
}

/** A storage.CSINodeDriver as Go's %#v prints it. */
function driverLiteral(driver: Obj): GoLiteral {
  const keys = Array.isArray(driver.topologyKeys)
    ? `[]string{${driver.topologyKeys.map((k) => goQuote(text(k))).join(', ')}}`
    : '[]string(nil)';
  const allocatable = isObject(driver.allocatable) ? '(*storage.VolumeNodeResources)(0xc000a1e180)' : '(*storage.VolumeNodeResources)(nil)';
  return new GoLiteral(
    `storage.CSINodeDriver{Name:${goQuote(text(driver.name))}, NodeID:${goQuote(text(driver.nodeID))}, TopologyKeys:${keys}, Allocatable:${allocatable}}`,
  );
}

/** ValidateCSINodeUpdate: drivers may come and go, but one registered under a name stays as it was. */
export function validateCSINodeUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateCSINode(next);
  for (const oldDriver of driversOf(old)) {
    for (const driver of driversOf(next)) {
      if (driver.name === oldDriver.name && !isDeepStrictEqual(driver, oldDriver)) {
        errs.push(fieldError.invalid('CSINodeDriver', driverLiteral(driver), 'field is immutable'));
      }
    }
  }
  return errs;
}
