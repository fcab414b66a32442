import type { JSONSchemaProps } from '../api/json-schema-props.js';
import { type Definitions, resolveSchema, type Schema } from './schema.js';

/**
 * A definition with its references replaced by the schemas they name, as kube-apiserver's schema resolver hands
 * a kind's schema to CEL type checking. A reference back into a definition being expanded (a recursive type) is
 * left untyped, which CEL sees as a field it cannot type-check rather than an endless type.
 */
export function inlineDefinition(definitions: Definitions, name: string): JSONSchemaProps | undefined {
  const root = definitions[name];
  return root === undefined ? undefined : inline(definitions, root, new Set([name]));
}

const V2_REF_PREFIX = '#/definitions/';

function inline(definitions: Definitions, schema: Schema, expanding: Set<string>): JSONSchemaProps {
  if (schema.$ref !== undefined) {
    const name = schema.$ref.startsWith(V2_REF_PREFIX) ? schema.$ref.slice(V2_REF_PREFIX.length) : schema.$ref;
    if (expanding.has(name) || definitions[name] === undefined) return {};
    expanding.add(name);
    const out = inline(definitions, resolveSchema(definitions, schema), expanding);
    expanding.delete(name);
    return out;
  }
  const out: JSONSchemaProps = {};
  if (schema.type !== undefined) out.type = schema.type;
  // The built-in IntOrString is a string with this format; CEL types it as the CRD extension does (dyn).
  if (schema.format === 'int-or-string' || schema['x-kubernetes-int-or-string'] === true) out['x-kubernetes-int-or-string'] = true;
  else if (schema.format !== undefined) out.format = schema.format;
  if (schema['x-kubernetes-preserve-unknown-fields'] === true) out['x-kubernetes-preserve-unknown-fields'] = true;
  if (schema['x-kubernetes-embedded-resource'] === true) out['x-kubernetes-embedded-resource'] = true;
  if (schema['x-kubernetes-list-type'] !== undefined) out['x-kubernetes-list-type'] = schema['x-kubernetes-list-type'];
  if (schema.properties !== undefined) {
    out.properties = {};
    for (const [key, prop] of Object.entries(schema.properties)) out.properties[key] = inline(definitions, prop, expanding);
  }
  if (schema.items !== undefined) out.items = inline(definitions, schema.items, expanding);
  if (typeof schema.additionalProperties === 'object')
    out.additionalProperties = inline(definitions, schema.additionalProperties, expanding);
  return out;
}
