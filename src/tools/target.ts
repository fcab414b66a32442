import type { ResourceInfo } from '../api/resource-info.js';
import { apiVersionOf } from '../api/types.js';
import type { ApiClient } from '../client/interface.js';
import { createRestMapper, mappingForArgument } from '../discovery/rest-mapper.js';
import { UsageError } from './command-io.js';
import { type Entry, entryOf } from './object-ref.js';
import { ClusterSnapshot, resourceRefOf } from './snapshot.js';

export interface TargetArgument {
  readonly type: string;
  readonly name: string;
}

/** kubectl's two spellings: `TYPE/NAME`, or `TYPE NAME`. */
export function parseTargetArguments(positionals: readonly string[]): TargetArgument {
  const [first, second, ...rest] = positionals;
  if (first === undefined) throw new UsageError('you must specify the object as TYPE/NAME (e.g. deployment/web)');
  if (rest.length > 0 || (first.includes('/') && second !== undefined))
    throw new UsageError(`expected one object, got ${positionals.join(' ')}`);
  if (first.includes('/')) {
    const slash = first.indexOf('/');
    const type = first.slice(0, slash);
    const name = first.slice(slash + 1);
    if (type === '' || name === '' || name.includes('/'))
      throw new UsageError(`arguments in resource/name form must have a single resource and name, got "${first}"`);
    return { type, name };
  }
  if (second === undefined) throw new UsageError(`you must specify the name of the ${first} (TYPE/NAME or TYPE NAME)`);
  return { type: first, name: second };
}

/**
 * Resolves the type with kubectl's REST mapping (unknown and ambiguous types fail with its messages) and reads
 * the object; a missing object fails with the server's NotFound.
 */
export async function resolveTarget(
  client: ApiClient,
  resources: readonly ResourceInfo[],
  target: TargetArgument,
  namespace: string,
  onWarning: (warning: string) => void,
): Promise<Entry> {
  const mapping = mappingForArgument({ mapper: createRestMapper(resources), resources }, target.type, onWarning);
  const gvr = mapping.resource;
  const info = resources.find((r) => r.group === gvr.group && r.version === gvr.version && r.plural === gvr.resource);
  if (info === undefined) throw new Error(`the server doesn't have a resource type "${target.type}"`);
  const object = await client.get(resourceRefOf(info), info.namespaced ? namespace : undefined, target.name);
  return entryOf(object, info, apiVersionOf(info.group, info.version));
}

/**
 * What every target command starts from: the object named on the command line, resolved before anything else is
 * read (a wrong name fails fast), and a snapshot of the cluster built from the same discovery.
 */
export async function loadTarget(
  client: ApiClient,
  positionals: readonly string[],
  namespace: string,
  onWarning: (warning: string) => void,
): Promise<{ readonly entry: Entry; readonly snapshot: ClusterSnapshot }> {
  const target = parseTargetArguments(positionals);
  const resources = await client.discover();
  const entry = await resolveTarget(client, resources, target, namespace, onWarning);
  return { entry, snapshot: await ClusterSnapshot.load(client, resources) };
}
