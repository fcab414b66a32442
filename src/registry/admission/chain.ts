import { auditRecorder } from '../../audit/context.js';
import type { AdmissionAttributes } from './attributes.js';
import type { MutatingAdmissionPlugin, ValidatingAdmissionPlugin } from './plugin.js';

/**
 * The admission chain as kube-apiserver runs it: the store calls `admit` (every mutating plugin, in order) before
 * the object's strategy validation and `validate` (every validating plugin, in order) after it. The first refusal
 * ends the write.
 */
export class AdmissionChain {
  readonly mutating: readonly MutatingAdmissionPlugin[];
  readonly validating: readonly ValidatingAdmissionPlugin[];

  constructor(mutating: readonly MutatingAdmissionPlugin[], validating: readonly ValidatingAdmissionPlugin[]) {
    this.mutating = mutating;
    this.validating = validating;
  }

  async admit(attributes: AdmissionAttributes): Promise<void> {
    // The object as the client sent it, before any plugin mutates it: the audit event's requestObject.
    if (attributes.user !== undefined && attributes.object !== undefined) auditRecorder()?.requestObject(attributes.object);
    for (const plugin of this.mutating) if (plugin.handles(attributes.operation)) await plugin.admit(attributes);
  }

  async validate(attributes: AdmissionAttributes): Promise<void> {
    for (const plugin of this.validating) if (plugin.handles(attributes.operation)) await plugin.validate(attributes);
  }
}

/** A registry without plugins (unit tests, tools): every write is admitted as it is. */
export const EMPTY_ADMISSION_CHAIN = new AdmissionChain([], []);
