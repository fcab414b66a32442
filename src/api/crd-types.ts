import type { KubeObject } from './types.js';
import type { JSONSchemaProps } from './json-schema-props.js';

/** The parts of an apiextensions.k8s.io/v1 CustomResourceDefinition that Cascade reads. */
export interface CrdNames {
  plural: string;
  singular?: string;
  kind: string;
  listKind?: string;
  shortNames?: string[];
  categories?: string[];
}

export interface CrdPrinterColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export interface CrdSubresources {
  status?: Record<string, never>;
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
}

export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: CrdSubresources;
  additionalPrinterColumns?: CrdPrinterColumn[];
  selectableFields?: { jsonPath: string }[];
}

/** `spec.conversion`: how objects move between served versions (R11.85). */
export interface CrdConversion {
  strategy: string;
  webhook?: {
    clientConfig?: {
      url?: string;
      service?: { namespace?: string; name?: string; path?: string; port?: number };
      caBundle?: string;
    };
    conversionReviewVersions?: string[];
  };
}

export interface CrdSpec {
  group: string;
  names: CrdNames;
  scope: 'Namespaced' | 'Cluster';
  versions: CrdVersion[];
  conversion?: CrdConversion;
  preserveUnknownFields?: boolean;
}

export interface CrdCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export interface CrdStatus {
  conditions?: CrdCondition[];
  acceptedNames?: CrdNames;
  storedVersions?: string[];
}

export interface CustomResourceDefinition extends KubeObject {
  spec: CrdSpec;
  status?: CrdStatus;
}

/** The finalizer that keeps a CRD until all its instances are deleted. */
export const CUSTOM_RESOURCE_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

export function conditionOf(crd: CustomResourceDefinition, type: string): CrdCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}
