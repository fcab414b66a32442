import { type Definitions, resolveSchema, type Schema } from '../openapi/schema.js';
import { patchEngineFailure } from './errors.js';

/**
 * Strategic-merge-patch metadata looked up in the OpenAPI definitions. The API server reads it from the Go struct
 * tags `patchStrategy` / `patchMergeKey`, which the definitions carry as x-kubernetes-patch-strategy /
 * x-kubernetes-patch-merge-key; list-type annotations play no part. An undefined schema means "unknown to the
 * schema": such values merge like a JSON merge patch.
 */
export interface FieldPatchMeta {
  /** Schema of the field's value (for lists: of the list itself), resolved; undefined when unknown. */
  readonly schema: Schema | undefined;
  /** 'merge', 'replace' or '' — the strategy with any retainKeys part removed. */
  readonly strategy: string;
  readonly mergeKey: string;
}

export class PatchSchema {
  readonly definitions: Definitions;

  constructor(definitions: Definitions) {
    this.definitions = definitions;
  }

  resolve(schema: Schema | undefined): Schema | undefined {
    return schema === undefined ? undefined : resolveSchema(this.definitions, schema);
  }

  /** Metadata for `key` inside an object described by `mapSchema` (a struct's property or a map's value). */
  field(mapSchema: Schema | undefined, key: string): FieldPatchMeta {
    const resolved = this.resolve(mapSchema);
    const unknownKey = resolved?.properties?.[key] === undefined;
    if (resolved === undefined || (resolved['x-kubernetes-preserve-unknown-fields'] === true && unknownKey)) {
      return { schema: undefined, strategy: '', mergeKey: '' };
    }
    const declared =
      resolved.properties?.[key] ?? (typeof resolved.additionalProperties === 'object' ? resolved.additionalProperties : undefined);
    if (declared === undefined) return { schema: undefined, strategy: '', mergeKey: '' };
    const target = this.resolve(declared);
    const strategyText = declared['x-kubernetes-patch-strategy'] ?? target?.['x-kubernetes-patch-strategy'] ?? '';
    const mergeKey = declared['x-kubernetes-patch-merge-key'] ?? target?.['x-kubernetes-patch-merge-key'] ?? '';
    return { schema: target, strategy: withoutRetainKeys(strategyText), mergeKey };
  }

  /** Schema of a list's elements. */
  items(listSchema: Schema | undefined): Schema | undefined {
    return this.resolve(this.resolve(listSchema)?.items);
  }
}

function withoutRetainKeys(strategyText: string): string {
  const strategies = strategyText === '' ? [] : strategyText.split(',');
  if (strategies.length === 0) return '';
  if (strategies.length === 1) return strategies[0] === 'retainKeys' ? '' : (strategies[0] ?? '');
  if (strategies.length === 2) {
    if (strategies[0] === 'retainKeys') return strategies[1] ?? '';
    if (strategies[1] === 'retainKeys') return strategies[0] ?? '';
  }
  throw patchEngineFailure(`unexpected patch strategy: [${strategies.join(' ')}]`);
}
