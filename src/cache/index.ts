export { createInformerFactory, type InformerFactory } from './informer-factory.js';
export { objectKey, objectKeyOf, splitObjectKey } from './object-key.js';
export { type BackoffOptions, createReflector, type Reflector, type ReflectorHandler, type ReflectorOptions } from './reflector.js';
export {
  createSharedInformer,
  type HandlerRegistration,
  type ResourceEventHandler,
  type SharedInformer,
  type SharedInformerOptions,
} from './shared-informer.js';
export {
  createStore,
  type IndexFunc,
  type Indexers,
  NAMESPACE_INDEX,
  namespaceIndexFunc,
  readOnlyView,
  type Store,
  type StoreReader,
} from './store.js';
export { metadataOnly } from './metadata-only.js';
