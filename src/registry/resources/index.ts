import type { ResourceInfo } from '../../api/resource-info.js';
import { BUILTIN_KINDS } from '../../kinds/index.js';
import type { Backend } from '../../storage/backend.js';
import type { Strategy } from '../strategy.js';
import type { WriteHooks } from '../write-hooks.js';
import { serviceClusterIps } from './service-cluster-ips.js';
import { genericStrategy } from './generic.js';

/** The store's behaviour for a built-in resource, from its kind's declaration (src/kinds/). */
function strategyOf(info: ResourceInfo): Strategy {
  const kind = BUILTIN_KINDS.find((candidate) => candidate.resource.group === info.group && candidate.resource.plural === info.plural);
  return genericStrategy(info, kind?.strategy);
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
