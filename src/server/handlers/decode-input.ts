import { badRequest } from '../../api/errors.js';
import { apiVersionOf, isObject, type KubeObject } from '../../api/types.js';
import { decodeTypedObject, type FieldValidation } from '../../decoding/decode-object.js';
import { decodeKubernetesProtobuf, KUBERNETES_PROTOBUF_MEDIA_TYPE, ProtobufDecodeError } from '../../protobuf/decode.js';
import { definitionRef } from '../../openapi/schema.js';
import type { ResourceRequest } from '../api-context.js';
import { parseBodyWithStrictErrors, readBody } from '../body.js';

const MODES: readonly string[] = ['Strict', 'Warn', 'Ignore'];

export function fieldValidationMode(r: ResourceRequest): FieldValidation {
  const v = r.query.string('fieldValidation') ?? 'Warn';
  if (!MODES.includes(v)) throw badRequest(`fieldValidation: Unsupported value: "${v}": supported values: "Ignore", "Strict", "Warn"`);
  return v as FieldValidation;
}

/**
 * Turns a create/update body into an object of this resource, as the apiserver's decoder does: kind and
 * apiVersion default from the URL and must match it; fields are checked against the type's schema; the
 * namespace is reconciled with the URL (R1.34).
 */
export function decodeObjectBody(
  r: ResourceRequest,
  raw: unknown,
  warnings: string[],
  bodyStrictErrors: readonly string[] = [],
): KubeObject {
  const info = r.store.info;
  if (!isObject(raw)) throw badRequest(`Object 'Kind' is missing in '${JSON.stringify(raw)}'`);
  const expectedApiVersion = r.store.apiVersion;
  const apiVersion = raw.apiVersion ?? expectedApiVersion;
  const kind = raw.kind ?? info.kind;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') throw badRequest('apiVersion and kind must be strings');
  if (apiVersion !== expectedApiVersion) {
    throw badRequest(`the API version in the data (${apiVersion}) does not match the expected API version (${expectedApiVersion})`);
  }
  if (kind !== info.kind) {
    throw badRequest(
      `${kind} in version "${info.version}" cannot be handled as a ${info.kind}: no kind "${kind}" is registered for the object's kind in this context`,
    );
  }
  // Both present (the usual case): the body already is what the decoder should see, and needs no copy.
  const typed = raw.apiVersion === apiVersion && raw.kind === kind ? raw : { ...raw, apiVersion, kind };
  const obj =
    info.custom === true
      ? decodeCustomResource(r, typed, kind, warnings, bodyStrictErrors)
      : decodeBuiltin(r, typed, warnings, bodyStrictErrors);
  if (!isObject(obj.metadata)) obj.metadata = {};
  const bodyNamespace = obj.metadata.namespace;
  if (info.namespaced) {
    // An empty request namespace (namespaces//<resource>) clears the body's, as EnsureObjectNamespaceMatchesRequestNamespace does.
    if (bodyNamespace !== undefined && bodyNamespace !== '' && r.namespace !== '' && bodyNamespace !== r.namespace) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    obj.metadata.namespace = r.namespace;
  } else {
    delete obj.metadata.namespace;
  }
  return obj;
}

function decodeBuiltin(
  r: ResourceRequest,
  typed: Record<string, unknown>,
  warnings: string[],
  bodyStrictErrors: readonly string[],
): KubeObject {
  const info = r.store.info;
  const target = { kind: info.kind, version: info.version };
  const decoded = decodeTypedObject(
    typed,
    definitionRef(info.definition),
    r.ctx.definitions,
    fieldValidationMode(r),
    target,
    bodyStrictErrors,
  );
  if (decoded.warnings.length > 0) warnings.push(...decoded.warnings);
  return decoded.object as KubeObject;
}

/** Custom resources are pruned by their CRD schema; fieldValidation decides what pruned fields mean. */
function decodeCustomResource(
  r: ResourceRequest,
  typed: Record<string, unknown>,
  kind: string,
  warnings: string[],
  bodyStrictErrors: readonly string[],
): KubeObject {
  const obj = typed as KubeObject;
  if (!isObject(obj.metadata)) obj.metadata = {};
  const pruned = r.store.strategy.pruneUnknownFields?.(obj) ?? [];
  const mode = fieldValidationMode(r);
  const strict = [...pruned.map((path) => `unknown field "${path}"`), ...bodyStrictErrors];
  if (strict.length > 0 && mode === 'Strict') {
    throw badRequest(
      `${kind} in version "${r.store.info.version}" cannot be handled as a ${kind}: strict decoding error: ${strict.join(', ')}`,
    );
  }
  if (mode === 'Warn') warnings.push(...strict);
  return obj;
}

function isProtobuf(contentType: string): boolean {
  return contentType.split(';')[0]?.trim() === KUBERNETES_PROTOBUF_MEDIA_TYPE;
}

export async function readObjectBody(r: ResourceRequest, warnings: string[]): Promise<KubeObject> {
  const body = await readBody(r.req);
  if (body.length === 0) throw badRequest('the request body is empty');
  const contentType = r.req.headers['content-type'];
  const info = r.store.info;
  // kubectl's generator commands and client-go typed clients send built-in objects as protobuf.
  if (contentType !== undefined && contentType !== 'application/json' && isProtobuf(contentType) && info.custom !== true) {
    try {
      const raw = decodeKubernetesProtobuf(body, r.ctx.definitions, {
        apiVersion: apiVersionOf(info.group, info.version),
        kind: info.kind,
      });
      return decodeObjectBody(r, raw, warnings);
    } catch (err) {
      if (err instanceof ProtobufDecodeError) throw err.forExpectedKind(info.kind, body);
      throw err;
    }
  }
  const parsed = await parseBodyWithStrictErrors(body, contentType, info.kind);
  return decodeObjectBody(r, parsed.value, warnings, parsed.strictErrors);
}
