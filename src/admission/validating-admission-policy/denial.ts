import { StatusError } from '../../api/errors.js';
import { qualifiedResource } from '../../api/resource-info.js';
import type { AdmissionAttributes } from '../../registry/admission/attributes.js';

/** How a policy's denial reaches the client (R11.169, R11.171). */

const CODES: Readonly<Record<string, number>> = { Forbidden: 403, Unauthorized: 401, RequestEntityTooLarge: 413 };

/** `ValidatingAdmissionPolicy 'p' with binding 'b' denied request: …`, or without the binding for policy-level errors. */
export function denialText(policy: string, binding: string | undefined, message: string): string {
  const who =
    binding === undefined ? `ValidatingAdmissionPolicy '${policy}'` : `ValidatingAdmissionPolicy '${policy}' with binding '${binding}'`;
  return `${who} denied request: ${message}`;
}

export function warningText(policy: string, binding: string, message: string): string {
  return `Validation failed for ValidatingAdmissionPolicy '${policy}' with binding '${binding}': ${message}`;
}

/** The request's name as the denial names it: the request's, else the object's name or generateName, else Unknown. */
function requestName(attributes: AdmissionAttributes): string {
  if (attributes.name !== '') return attributes.name;
  const meta = (attributes.object ?? attributes.oldObject)?.metadata;
  if (meta?.name !== undefined && meta.name !== '') return meta.name;
  if (meta?.generateName !== undefined && meta.generateName !== '') return meta.generateName;
  return 'Unknown';
}

/** A Forbidden Status carrying the decision's reason and code, the text repeated as its one cause (quirk Q13). */
export function denialError(attributes: AdmissionAttributes, text: string, reason: string): StatusError {
  const name = requestName(attributes);
  const { resource } = attributes;
  const details = resource.group === '' ? { name, kind: resource.plural } : { name, group: resource.group, kind: resource.plural };
  return new StatusError(CODES[reason] ?? 422, reason, `${qualifiedResource(resource)} "${name}" is forbidden: ${text}`, {
    ...details,
    causes: [{ message: text }],
  });
}
