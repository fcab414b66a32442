import { isDeepStrictEqual } from 'node:util';
import { type FieldError, fieldError, GoLiteral } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { bool, kindDefinition, listDefinition, ref, str, stringMap, TIME } from '../../openapi/builders/group-builders.js';
import type { Definitions } from '../../openapi/schema.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, text } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import { isDns1123Subdomain } from '../../validation/names.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, STATUS } from '../define/resource.js';
import { specOf } from '../../api/json-fields.js';

const P = 'io.k8s.api.storage.v1.';
const MAX_ATTACHER_LENGTH = 63;

type Obj = Record<string, unknown>;

const VOLUME_ATTACHMENT_PRINTER: Printer = {
  style: 'printer',
  columns: [
    NAME_COLUMN,
    column('Attacher', 'string', 'attacher indicates the name of the volume driver that MUST handle this request.', { format: 'name' }),
    column('PV', 'string', 'persistentVolumeName represents the name of the persistent volume to attach.'),
    column('Node', 'string', 'nodeName represents the node that the volume should be attached to.'),
    column('Attached', 'boolean', 'attached indicates the volume is successfully attached.'),
    AGE_COLUMN,
  ],
  row: (va, now) => [
    va.metadata.name ?? '',
    text(get(va, 'spec', 'attacher')),
    text(get(va, 'spec', 'source', 'persistentVolumeName')),
    text(get(va, 'spec', 'nodeName')),
    get(va, 'status', 'attached') === true,
    age(va.metadata.creationTimestamp, now),
  ],
};

/** ValidateVolumeAttachment: an attacher named like a driver, a node, and exactly one volume source. */
function validateVolumeAttachment(va: KubeObject): FieldError[] {
  const spec = specOf(va);
  const errs: FieldError[] = [];
  const attacher = typeof spec.attacher === 'string' ? spec.attacher : '';
  if (attacher === '') errs.push(fieldError.required('spec.attacher'));
  else if (attacher.length > MAX_ATTACHER_LENGTH) errs.push(fieldError.tooLong('spec.attacher', MAX_ATTACHER_LENGTH));
  else errs.push(...isDns1123Subdomain(attacher.toLowerCase()).map((msg) => fieldError.invalid('spec.attacher', attacher, msg)));
  const source = isObject(spec.source) ? spec.source : {};
  const hasPv = source.persistentVolumeName !== undefined && source.persistentVolumeName !== null;
  const hasInline = isObject(source.inlineVolumeSpec);
  if (hasPv === hasInline)
    errs.push(fieldError.forbidden('spec.source', 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
  else if (hasPv && source.persistentVolumeName === '')
    errs.push(fieldError.required('spec.source.persistentVolumeName', 'must specify non empty persistentVolumeName'));
  if (typeof spec.nodeName !== 'string' || spec.nodeName === '') errs.push(fieldError.required('spec.nodeName'));
  return errs;
}

/**
 * The spec as Go's %#v prints it in the immutability error. Go prints the addresses of the pointer fields, which
 * no client can rely on; they are left out.
 */
function goSpec(spec: Obj): GoLiteral {
  const source = isObject(spec.source) ? spec.source : {};
  const pv =
    typeof source.persistentVolumeName === 'string' ? `(*string)(${JSON.stringify(source.persistentVolumeName)})` : '(*string)(nil)';
  const inline = isObject(source.inlineVolumeSpec) ? '(*core.PersistentVolumeSpec)(…)' : '(*core.PersistentVolumeSpec)(nil)';
  return new GoLiteral(
    `storage.VolumeAttachmentSpec{Attacher:${JSON.stringify(text(spec.attacher))}, Source:storage.VolumeAttachmentSource{PersistentVolumeName:${pv}, InlineVolumeSpec:${inline}}, NodeName:${JSON.stringify(text(spec.nodeName))}}`,
  );
}

/** ValidateVolumeAttachment, then ValidateVolumeAttachmentUpdate: the spec never changes once created. */
function validateVolumeAttachmentUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateVolumeAttachment(next);
  if (!isDeepStrictEqual(next.spec, old.spec)) errs.push(fieldError.invalid('spec', goSpec(specOf(next)), 'field is immutable'));
  return errs;
}

const DEFINITIONS: Definitions = {
  [`${P}VolumeAttachment`]: kindDefinition({
    group: 'storage.k8s.io',
    version: 'v1',
    kind: 'VolumeAttachment',
    description: 'VolumeAttachment is the intent to attach a volume to a node, completed by the external attacher. Cluster-scoped.',
    properties: {
      spec: ref(`${P}VolumeAttachmentSpec`, 'The desired attachment. Immutable.'),
      status: ref(`${P}VolumeAttachmentStatus`, 'The outcome of the attach or detach operation.'),
    },
    required: ['spec'],
  }),
  [`${P}VolumeAttachmentList`]: listDefinition('storage.k8s.io', 'v1', 'VolumeAttachment', `${P}VolumeAttachment`),
  [`${P}VolumeAttachmentSpec`]: {
    type: 'object',
    description: 'The desired attachment of a volume to a node.',
    properties: {
      attacher: str('Name of the volume driver that handles the request.'),
      nodeName: str('The node the volume is attached to.'),
      source: ref(`${P}VolumeAttachmentSource`, 'The volume to attach.'),
    },
    required: ['attacher', 'source', 'nodeName'],
  },
  [`${P}VolumeAttachmentSource`]: {
    type: 'object',
    description: 'The volume to attach: exactly one of a PersistentVolume name and an inline volume spec.',
    properties: {
      inlineVolumeSpec: ref('io.k8s.api.core.v1.PersistentVolumeSpec', 'A pod inline volume translated for CSI migration.'),
      persistentVolumeName: str('Name of the PersistentVolume to attach.'),
    },
  },
  [`${P}VolumeAttachmentStatus`]: {
    type: 'object',
    description: 'The outcome of an attach or detach request.',
    properties: {
      attachError: ref(`${P}VolumeError`, 'The last attach error, if any.'),
      attached: bool('Whether the volume is attached.'),
      attachmentMetadata: stringMap('Information the attach returned for later mount calls.'),
      detachError: ref(`${P}VolumeError`, 'The last detach error, if any.'),
    },
    required: ['attached'],
  },
  [`${P}VolumeError`]: {
    type: 'object',
    description: 'An error of a volume operation.',
    properties: {
      message: str('The error; logged, so without secrets.'),
      time: ref(TIME, 'When the error happened.'),
    },
  },
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}VolumeAttachment`]: { tags: { metadata: 1, spec: 2, status: 3 } },
  [`${P}VolumeAttachmentList`]: { tags: { metadata: 1, items: 2 } },
  [`${P}VolumeAttachmentSpec`]: { tags: { attacher: 1, source: 2, nodeName: 3 } },
  [`${P}VolumeAttachmentSource`]: { tags: { persistentVolumeName: 1, inlineVolumeSpec: 2 }, pointers: ['persistentVolumeName'] },
  [`${P}VolumeAttachmentStatus`]: { tags: { attached: 1, attachmentMetadata: 2, attachError: 3, detachError: 4 } },
  [`${P}VolumeError`]: { tags: { time: 1, message: 2 } },
};

/** storage.k8s.io/v1 VolumeAttachment. */
export const VOLUME_ATTACHMENT: KindDefinition = {
  resource: resourceInfo({
    group: 'storage.k8s.io',
    version: 'v1',
    kind: 'VolumeAttachment',
    plural: 'volumeattachments',
    namespaced: false,
    subresources: [STATUS],
  }),
  strategy: { validate: validateVolumeAttachment, validateUpdate: validateVolumeAttachmentUpdate },
  printer: VOLUME_ATTACHMENT_PRINTER,
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
