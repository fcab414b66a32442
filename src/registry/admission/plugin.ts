import type { AdmissionAttributes, AdmissionOperation } from './attributes.js';

/**
 * A plugin of the mutating phase (admission.MutationInterface): it may change `attributes.object` before the
 * object's own validation runs, or refuse the write by throwing a StatusError.
 */
export interface MutatingAdmissionPlugin {
  readonly name: string;
  handles(operation: AdmissionOperation): boolean;
  admit(attributes: AdmissionAttributes): Promise<void>;
}

/**
 * A plugin of the validating phase (admission.ValidationInterface): it sees the object as it will be stored, after
 * its validation, and may only refuse (throw a StatusError), never change it.
 */
export interface ValidatingAdmissionPlugin {
  readonly name: string;
  handles(operation: AdmissionOperation): boolean;
  validate(attributes: AdmissionAttributes): Promise<void>;
}
