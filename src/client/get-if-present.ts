import { StatusError } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import type { ApiClient, ResourceRef } from './interface.js';

/** A read that reports absence (404) as undefined instead of an error; every other failure still throws. */
export async function getIfPresent(
  client: ApiClient,
  ref: ResourceRef,
  namespace: string | undefined,
  name: string,
): Promise<KubeObject | undefined> {
  try {
    return await client.get(ref, namespace, name);
  } catch (err) {
    if (err instanceof StatusError && err.code === 404) return undefined;
    throw err;
  }
}
