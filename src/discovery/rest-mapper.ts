/**
 * The REST mapper: resolves what users and objects name (partial resources, short names, categories,
 * kinds) to served group-version-resources with Kubernetes' exact semantics (spec section 7).
 */

export { createRestMapper } from './rest-mapper/create.js';
export {
  AmbiguousKindError,
  AmbiguousResourceError,
  isAmbiguousError,
  isNoMatchError,
  NoKindMatchError,
  NoResourceMatchError,
} from './rest-mapper/errors.js';
export { expandResourceShortcut, type ShortcutExpansion } from './rest-mapper/shortcut.js';
export { expandCategory } from './rest-mapper/categories.js';
export {
  parseKindArgument,
  parseResourceArgument,
  type ParsedKindArgument,
  type ParsedResourceArgument,
} from './rest-mapper/parse-argument.js';
export {
  mappingForArgument,
  type MappingSource,
  ResourceTypeNotFoundError,
} from './rest-mapper/mapping-for-argument.js';
export {
  type CachedRestMapper,
  type CachedRestMapperOptions,
  createCachedRestMapper,
  DEFAULT_MIN_REFRESH_INTERVAL_MS,
  type DiscoverySource,
} from './rest-mapper/cached.js';
export type {
  GroupKind,
  GroupResource,
  GroupVersionKind,
  GroupVersionResource,
  PartialResource,
  RestMapper,
  RestMapping,
  RestScope,
} from './rest-mapper/types.js';
