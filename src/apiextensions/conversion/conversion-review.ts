import { fieldErrorBody, type FieldError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { validateAnnotations, validateLabels } from '../../validation/labels.js';

/**
 * The pure half of a CRD conversion webhook call (apiextensions-apiserver's webhook_converter.go): the
 * ConversionReview sent (R11.91), the checks of the answer (R11.92, R11.93) and of every converted object, whose
 * metadata is put back from the original except labels and annotations (R11.94, R11.95). Every failure is an Error
 * whose message is Kubernetes' text after `conversion webhook for <gvk> `.
 */

const REVIEW_GROUP = 'apiextensions.k8s.io';
/** The review versions this server speaks, in the order a CRD's preference list is read against. */
const SUPPORTED_REVIEW_VERSIONS = new Set(['v1', 'v1beta1']);

export interface ConversionReview {
  readonly apiVersion: string;
  readonly kind: 'ConversionReview';
  readonly request: { readonly uid: string; readonly desiredAPIVersion: string; readonly objects: readonly KubeObject[] };
}

/** Go's GroupVersionKind.String(): `<group>/<version>, Kind=<kind>` (always with the slash). */
export function describeGvk(apiVersion: string | undefined, kind: string | undefined): string {
  const { group, version } = splitApiVersion(apiVersion ?? '');
  return `${group}/${version}, Kind=${kind ?? ''}`;
}

function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** Go's GroupVersion.String() of a parsed apiVersion: the version alone for the core group. */
function groupVersionString(apiVersion: unknown): string {
  const { group, version } = splitApiVersion(typeof apiVersion === 'string' ? apiVersion : '');
  return group === '' ? version : `${group}/${version}`;
}

/** The review for the first of the CRD's preferred review versions this server knows (R11.91). */
export function conversionReview(
  reviewVersions: readonly string[],
  uid: string,
  desiredAPIVersion: string,
  objects: readonly KubeObject[],
): ConversionReview {
  const version = reviewVersions.find((v) => SUPPORTED_REVIEW_VERSIONS.has(v));
  if (version === undefined) throw new Error('no supported conversion review versions');
  return { apiVersion: `${REVIEW_GROUP}/${version}`, kind: 'ConversionReview', request: { uid, desiredAPIVersion, objects } };
}

/** The converted objects of an answer, or the error Kubernetes reports for it (R11.92, R11.93). */
export function convertedObjectsOf(sent: ConversionReview, answer: unknown): unknown[] {
  const body = isObject(answer) ? answer : {};
  const v1 = sent.apiVersion === `${REVIEW_GROUP}/v1`;
  // v1beta1 answers were never checked for their kind or uid; v1 answers are.
  if (v1 && (body.apiVersion !== sent.apiVersion || body.kind !== 'ConversionReview'))
    throw new Error(
      `expected webhook response of ${describeGvk(sent.apiVersion, 'ConversionReview')}, got ${describeGvk(stringOr(body.apiVersion), stringOr(body.kind))}`,
    );
  if (!isObject(body.response)) throw new Error('no response provided');
  const response = body.response;
  const uid = stringOr(response.uid);
  if (v1 && uid !== sent.request.uid)
    throw new Error(`expected response.uid=${JSON.stringify(sent.request.uid)}, got ${JSON.stringify(uid)}`);
  const result = isObject(response.result) ? response.result : {};
  if (result.status !== 'Success') {
    const message = stringOr(result.message);
    if (message !== '') throw new Error(message);
    throw new Error(`response.result.status was '${stringOr(result.status)}', not 'Success'`);
  }
  return Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
}

function stringOr(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export type ConvertedObjectProblem = 'decode' | 'version' | 'identity' | 'metadata';

/** What went wrong with one converted object, and in which of Kubernetes' sentences to say it. */
export class ConvertedObjectError extends Error {
  /**
   * `decode`: not an object; `version`: its apiVersion or kind; `identity`: its name, namespace or uid;
   * `metadata`: its labels or annotations. Kubernetes words each differently for a single object and a list item.
   */
  readonly part: ConvertedObjectProblem;
  constructor(part: ConvertedObjectProblem, message: string) {
    super(message);
    this.part = part;
  }
}

/**
 * Checks one converted object against its original and returns it with the original's metadata, keeping the
 * webhook's labels and annotations (R11.94, R11.95).
 */
export function acceptConverted(original: KubeObject, converted: unknown, desiredAPIVersion: string): KubeObject {
  if (!isObject(converted)) throw new ConvertedObjectError('decode', `converted object of type ${goType(converted)} is not an object`);
  const expected = groupVersionString(desiredAPIVersion);
  const received = groupVersionString(converted.apiVersion);
  if (expected !== received) throw new ConvertedObjectError('version', `invalid groupVersion (expected ${expected}, received ${received})`);
  if (original.kind !== converted.kind)
    throw new ConvertedObjectError('version', `invalid kind (expected ${original.kind}, received ${stringOr(converted.kind)})`);
  const meta = isObject(converted.metadata) ? converted.metadata : {};
  const same = (field: 'name' | 'namespace' | 'uid', label: string): void => {
    const before = stringOr(original.metadata[field]);
    const after = stringOr(meta[field]);
    if (before !== after) throw new ConvertedObjectError('identity', `must have the same ${label}: ${before} != ${after}`);
  };
  same('name', 'name');
  same('namespace', 'namespace');
  same('uid', 'UID');
  return { ...converted, metadata: restoredMetadata(original, converted.metadata) } as KubeObject;
}

/** The original metadata with the webhook's labels and annotations; any other metadata change is dropped. */
function restoredMetadata(original: KubeObject, answered: unknown): KubeObject['metadata'] {
  if (answered === undefined) throw new ConvertedObjectError('metadata', 'missing metadata in converted object');
  if (!isObject(answered)) throw new ConvertedObjectError('metadata', `invalid metadata of type ${goType(answered)} in converted object`);
  const metadata: Record<string, unknown> = structuredClone(original.metadata);
  for (const field of ['labels', 'annotations'] as const) {
    const value = answered[field];
    if (value === undefined || value === null) {
      delete metadata[field];
      continue;
    }
    if (!isObject(value))
      throw new ConvertedObjectError('metadata', `invalid metadata.${field} of type ${goType(value)} in converted object`);
    const before = isObject(metadata[field]) ? (metadata[field] as Record<string, unknown>) : {};
    let changed = Object.keys(before).length !== Object.keys(value).length;
    for (const [k, v] of Object.entries(value)) {
      if (typeof v !== 'string')
        throw new ConvertedObjectError('metadata', `metadata.${field}[${k}] must be a string, but is ${goType(v)} in converted object`);
      if (before[k] !== v) changed = true;
    }
    if (changed) {
      // Kubernetes names the annotations' path in the singular here.
      const errs = field === 'labels' ? validateLabels(value, 'metadata.labels') : validateAnnotations(value, 'metadata.annotation');
      if (errs.length > 0) throw new ConvertedObjectError('metadata', aggregate(errs));
    }
    metadata[field] = value;
  }
  return metadata as KubeObject['metadata'];
}

/** field.ErrorList.ToAggregate().Error(): one message, or `[a, b]`. */
function aggregate(errs: readonly FieldError[]): string {
  const rendered = [...new Set(errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`))];
  return rendered.length === 1 ? (rendered[0] as string) : `[${rendered.join(', ')}]`;
}

/** The Go type a JSON value decodes to, as %T prints it. */
function goType(value: unknown): string {
  if (value === null) return '<nil>';
  if (Array.isArray(value)) return '[]interface {}';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return Number.isInteger(value) ? 'int64' : 'float64';
    case 'boolean':
      return 'bool';
    default:
      return 'map[string]interface {}';
  }
}
