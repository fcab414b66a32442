import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, STATUS } from '../define/resource.js';

/**
 * apiextensions.k8s.io/v1 CustomResourceDefinition. Its strategy needs the CRD machinery above the registry
 * (apiextensions/crd-strategy.ts), which the API server hands the registry at construction.
 */
export const CUSTOM_RESOURCE_DEFINITION: KindDefinition = {
  resource: resourceInfo({
    group: 'apiextensions.k8s.io',
    version: 'v1',
    kind: 'CustomResourceDefinition',
    plural: 'customresourcedefinitions',
    namespaced: false,
    definition: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition',
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    subresources: [STATUS],
  }),
};
