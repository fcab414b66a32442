import type { ResourceInfo } from '../../api/resource-info.js';
import { BUILTIN_KINDS, versionConversion } from '../../kinds/index.js';
import type { VersionConversion } from '../../kinds/define/kind-definition.js';
import type { Backend } from '../../storage/backend.js';
import type { Strategy } from '../strategy.js';
import type { WriteHooks } from '../write-hooks.js';
import { serviceClusterIps } from './service-cluster-ips.js';
import { genericStrategy } from './generic.js';

/**
 * The store's behaviour for a built-in resource, from its kind's declaration (src/kinds/) at the storage version:
 * a version served by conversion hands the store objects already converted to it.
 */
function strategyOf(info: ResourceInfo): Strategy {
  const kind = BUILTIN_KINDS.find(
    (candidate) =>
      candidate.resource.group === info.group && candidate.resource.plural === info.plural && candidate.conversion === undefined,
  );
  return genericStrategy(kind?.resource ?? info, kind?.strategy);
}

/** How a built-in resource's served version converts to the version it is stored at; undefined when they are one. */
export function conversionFor(info: ResourceInfo): VersionConversion | undefined {
  return info.custom === true ? undefined : versionConversion(info);
}

const cache = new WeakMap<ResourceInfo, Strategy>();

export function strategyFor(info: ResourceInfo): Strategy {
  let strategy = cache.get(info);
  if (strategy === undefined) {
    strategy = strategyOf(info);
    cache.set(info, strategy);
  }
  return strategy;
}

/** The storage steps a resource adds around its writes: core/v1 Services allocate cluster IPs. */
export function writeHooksFor(info: ResourceInfo, backend: Backend): WriteHooks {
  return info.group === '' && info.plural === 'services' ? serviceClusterIps(backend) : {};
}
