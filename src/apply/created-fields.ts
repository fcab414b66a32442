import { isJsonMap } from '../util/json-value.js';
import { compareElements, type FieldSet, fieldElement, type PathElement } from './fieldpath.js';
import { STRIPPED_METADATA_FIELDS } from './managed-fields.js';
import { DEDUCED, type MergeType } from './schema.js';
import { fieldType, indexItems, isLeaf } from './typed.js';

type Json = Record<string, unknown>;

/** FieldsV1 of every node below a value: each non-leaf child carries "." (it is Added as a whole, R10.49). */
function subtreeJson(value: unknown, type: MergeType, skip?: ReadonlySet<string>): Json {
  const out: Json = {};
  if (isLeaf(type, value)) return out;
  const entries: [PathElement, Json][] = [];
  if (isJsonMap(value)) {
    for (const key of Object.keys(value)) {
      if (skip?.has(key) === true) continue;
      entries.push([fieldElement(key), member(value[key], fieldType(type, key) ?? DEDUCED)]);
    }
  } else if (Array.isArray(value) && type.kind === 'list') {
    const elem = type.elem();
    for (const group of indexItems(type, value).values()) {
      entries.push([group.pe, group.items.length === 1 ? member(group.items[0], elem) : {}]);
    }
  }
  entries.sort((a, b) => compareElements(a[0], b[0]));
  for (const [pe, json] of entries) out[pe] = json;
  return out;
}

function member(value: unknown, type: MergeType): Json {
  const children = subtreeJson(value, type);
  for (const _ in children) return { '.': {}, ...children };
  return children;
}

/**
 * The FieldsV1 a create by an Update operation records when it starts from no entries (the common create):
 * everything the object holds, less the stripped metadata (R10.36) and the endpoint's reset fields (top-level
 * paths, R10.80). Equal to recordUpdate's result for that case, built without intermediate field sets because
 * every create pays for it. `undefined` when the object holds nothing tracked.
 */
export function createdFieldsV1(obj: Json, type: MergeType, resetFields: FieldSet): Json | undefined {
  const entries: [PathElement, Json][] = [];
  for (const key of Object.keys(obj)) {
    if (key === 'apiVersion' || key === 'kind') continue;
    const pe = fieldElement(key);
    if (resetFields.members.has(pe)) continue;
    const ft = fieldType(type, key) ?? DEDUCED;
    if (key === 'metadata') {
      const meta = subtreeJson(obj[key], ft, STRIPPED_METADATA_FIELDS);
      for (const _ in meta) {
        entries.push([pe, meta]);
        break;
      }
      continue;
    }
    entries.push([pe, member(obj[key], ft)]);
  }
  if (entries.length === 0) return undefined;
  entries.sort((a, b) => compareElements(a[0], b[0]));
  const out: Json = {};
  for (const [pe, json] of entries) out[pe] = json;
  return out;
}
