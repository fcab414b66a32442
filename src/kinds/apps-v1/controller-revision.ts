import { type FieldError, fieldError, GoLiteral } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { int64, kindDefinition, listDefinition, ref } from '../../openapi/builders/group-builders.js';
import type { Definitions } from '../../openapi/schema.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { column } from '../../tables/printer.js';
import { isDeepStrictEqual } from 'node:util';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';
import { P } from './schema-parts.js';

const revisionDoc = 'Revision indicates the revision of the state represented by Data.';

/** An absent or JSON-null data converts to a nil runtime.Object in Kubernetes, which is what "mandatory" refuses. */
const hasData = (cr: KubeObject): boolean => cr.data !== undefined && cr.data !== null;

/** ValidateControllerRevision (pkg/apis/apps/validation): data present, revision not negative. */
export function validateControllerRevision(cr: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (!hasData(cr)) errs.push(fieldError.required('data', 'data is mandatory'));
  if (typeof cr.revision === 'number' && cr.revision < 0) {
    errs.push(fieldError.invalid('revision', cr.revision, 'must be greater than or equal to 0'));
  }
  return errs;
}

/**
 * Go prints the changed data with %#v of the runtime.Unknown the raw JSON converts to; Cascade rebuilds the raw
 * bytes from the decoded value (compact JSON, as kubectl sends it).
 */
function unknownLiteral(data: unknown): GoLiteral {
  const raw = [...Buffer.from(JSON.stringify(data))].map((b) => `0x${b.toString(16)}`).join(', ');
  return new GoLiteral(
    `runtime.Unknown{TypeMeta:runtime.TypeMeta{APIVersion:"", Kind:""}, Raw:[]uint8{${raw}}, ContentEncoding:"", ContentType:"application/json"}`,
  );
}

/** ValidateControllerRevisionUpdate: the create checks again, then data is immutable (revision may change). */
export function validateControllerRevisionUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateControllerRevision(next);
  if (!isDeepStrictEqual(next.data ?? null, old.data ?? null)) {
    errs.push(fieldError.invalid('data', hasData(next) ? unknownLiteral(next.data) : null, 'field is immutable'));
  }
  return errs;
}

/** printControllerRevision: the controlling owner as `<kind>.<group>/<name>` (lower-cased group kind). */
function controllerOf(cr: KubeObject): string {
  const owner = (cr.metadata.ownerReferences ?? []).find((o) => o.controller === true);
  if (owner === undefined) return '<none>';
  const apiVersion = owner.apiVersion ?? '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const kind = owner.kind ?? '';
  const groupKind = group === '' ? kind : `${kind}.${group}`;
  return groupKind === '' ? (owner.name ?? '') : `${groupKind.toLowerCase()}/${owner.name ?? ''}`;
}

const DEFINITIONS: Definitions = {
  [`${P}ControllerRevision`]: kindDefinition({
    group: 'apps',
    version: 'v1',
    kind: 'ControllerRevision',
    description:
      'ControllerRevision is an immutable snapshot of a controller’s state (DaemonSets and StatefulSets keep their template history in them); its data cannot change once created.',
    properties: {
      data: ref('io.k8s.apimachinery.pkg.runtime.RawExtension', 'The serialized state this revision records.'),
      revision: int64(revisionDoc),
    },
    required: ['revision'],
  }),
  [`${P}ControllerRevisionList`]: listDefinition('apps', 'v1', 'ControllerRevision', `${P}ControllerRevision`),
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}ControllerRevision`]: { tags: { metadata: 1, data: 2, revision: 3 } },
  [`${P}ControllerRevisionList`]: { tags: { metadata: 1, items: 2 } },
};

/** apps/v1 ControllerRevision: the history DaemonSets and StatefulSets roll back to. */
export const CONTROLLER_REVISION: KindDefinition = {
  resource: resourceInfo({ group: 'apps', version: 'v1', kind: 'ControllerRevision', plural: 'controllerrevisions', namespaced: true }),
  strategy: {
    validate: validateControllerRevision,
    validateUpdate: validateControllerRevisionUpdate,
  },
  printer: {
    style: 'printer',
    columns: [
      NAME_COLUMN,
      column('Controller', 'string', 'Controller of the object'),
      column('Revision', 'string', revisionDoc),
      AGE_COLUMN,
    ],
    row: (cr, now) => [
      cr.metadata.name ?? '',
      controllerOf(cr),
      typeof cr.revision === 'number' ? Math.trunc(cr.revision) : 0,
      age(cr.metadata.creationTimestamp, now),
    ],
  },
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
