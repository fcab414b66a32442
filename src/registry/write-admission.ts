import type { KubeObject } from '../api/types.js';
import type { ResourceInfo } from '../api/resource-info.js';
import type { UserInfo } from '../api/user.js';

/** A validation/admission hook the HTTP layer plugs in (e.g. namespace lifecycle); runs before every write. */
export type WriteAdmission = (
  operation: 'CREATE' | 'UPDATE' | 'DELETE',
  info: ResourceInfo,
  obj: KubeObject,
  old?: KubeObject,
  options?: AdmissionOptions,
) => Promise<void>;

export interface AdmissionOptions {
  readonly dryRun: boolean;
  readonly user?: UserInfo;
  /** "status", "finalize", …: some plugins let subresource writes through (pods/status for owner references). */
  readonly subresource?: string;
}
