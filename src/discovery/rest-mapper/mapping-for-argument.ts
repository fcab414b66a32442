/**
 * How kubectl turns a resource-type argument into a REST mapping (cli-runtime resource.Builder
 * mappingFor over a short-name expanding mapper): by resource first (`resource.version.group`, then
 * `resource.group`), then by kind, and R7.19's error when nothing matches.
 */

import type { ResourceInfo } from '../../api/resource-info.js';
import { goQuote } from '../../util/go-quote.js';
import { isNoMatchError } from './errors.js';
import { parseKindArgument, parseResourceArgument } from './parse-argument.js';
import { expandResourceShortcut } from './shortcut.js';
import type { GroupVersionKind, PartialResource, RestMapper, RestMapping } from './types.js';

/** R7.19: kubectl's report for an argument that names no resource or kind. */
export class ResourceTypeNotFoundError extends Error {
  readonly resource: string;

  constructor(resource: string) {
    super(`the server doesn't have a resource type ${goQuote(resource)}`);
    this.name = 'ResourceTypeNotFoundError';
    this.resource = resource;
  }
}

export interface MappingSource {
  readonly mapper: RestMapper;
  /** The discovery data the mapper was built from, for short-name expansion. */
  readonly resources: readonly ResourceInfo[];
}

/** kubectl ignores lookup errors at this stage and moves on to the next reading. */
function tryKindFor(source: MappingSource, partial: PartialResource, onWarning: (warning: string) => void): GroupVersionKind | undefined {
  const expansion = expandResourceShortcut(source.resources, partial);
  expansion.warnings.forEach(onWarning);
  try {
    return source.mapper.kindFor(expansion.resource);
  } catch {
    return undefined;
  }
}

export function mappingForArgument(source: MappingSource, arg: string, onWarning: (warning: string) => void = () => {}): RestMapping {
  const { fullySpecified, groupResource } = parseResourceArgument(arg);
  const gvk =
    (fullySpecified === undefined ? undefined : tryKindFor(source, fullySpecified, onWarning)) ??
    tryKindFor(source, groupResource, onWarning);
  if (gvk !== undefined) return source.mapper.restMapping({ group: gvk.group, kind: gvk.kind }, gvk.version);

  const { fullySpecified: fullKind, groupKind } = parseKindArgument(arg);
  const kindReading = fullKind ?? { ...groupKind, version: '' };
  if (kindReading.group !== '' || kindReading.version !== '' || kindReading.kind !== '') {
    try {
      return source.mapper.restMapping({ group: kindReading.group, kind: kindReading.kind }, kindReading.version);
    } catch {
      // Fall through to the group/kind reading, as kubectl does.
    }
  }
  try {
    return source.mapper.restMapping(groupKind, '');
  } catch (err) {
    if (isNoMatchError(err)) throw new ResourceTypeNotFoundError(groupResource.resource);
    throw err;
  }
}
