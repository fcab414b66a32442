import type { ResourceInfo } from '../../api/resource-info.js';
import type { KubeObject } from '../../api/types.js';
import type { Definitions } from '../../openapi/schema.js';
import type { Printer } from '../../tables/printer.js';
import type { FieldNumberTable } from './field-numbers.js';
import type { FieldSelectors } from './field-selectors.js';
import type { StrategyOptions } from './strategy-options.js';

/** Schemas and protobuf field numbers of a set of Go types (a kind's own, or types several kinds share). */
export interface TypeSet {
  /** OpenAPI v2 definitions with the Kubernetes extensions, keyed by their Kubernetes names. */
  readonly definitions?: Definitions;
  /** Field numbers of the same types' protobuf messages (generated.proto). */
  readonly fieldNumbers?: FieldNumberTable;
}

/**
 * How a version that is served but not stored converts to and from the storage version (pkg/apis/<group>/<version>/
 * conversion.go). The store applies it at its edges: objects come in converted to the storage version, and every
 * object it hands out (reads, lists, watch events, write results) goes out converted back.
 */
export interface VersionConversion {
  /** The version of the same group and resource the objects are stored at, whose strategy and printer apply. */
  readonly storageVersion: string;
  toStorage(obj: KubeObject): KubeObject;
  fromStorage(obj: KubeObject): KubeObject;
}

/**
 * Everything Cascade knows about one built-in kind, in one place. The generic machinery reads it: discovery and
 * the REST mapper (`resource`), the registry's store (`strategy`, `printer`, `fieldSelectors`), the OpenAPI
 * documents, typed decoding and patching (`definitions`) and the protobuf codec (`fieldNumbers`).
 */
export interface KindDefinition extends TypeSet {
  /** The discovery facts kube-apiserver reports for the kind (resourceInfo() builds them). */
  readonly resource: ResourceInfo;
  /** How the generic store specialises for the kind (pkg/registry/<group>/<kind>/strategy.go); omitted: plain. */
  readonly strategy?: StrategyOptions;
  /** Field label conversion and the values objects are matched on; omitted: metadata.name and namespace. */
  readonly fieldSelectors?: FieldSelectors;
  /** Server-side printing (pkg/printers/internalversion); omitted: the DefaultTableConvertor's Name and Created At. */
  readonly printer?: Printer;
  /**
   * Present on a further version of a kind already declared at its storage version (autoscaling/v1
   * HorizontalPodAutoscalers, stored as v2): such a version declares its resource, schemas and field numbers, and
   * borrows strategy, field selectors and printer from the storage version.
   */
  readonly conversion?: VersionConversion;
}
