import type { ResourceInfo } from '../../api/resource-info.js';
import { BUILTIN_KINDS } from '../../kinds/index.js';
import type { Strategy } from '../strategy.js';
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
