import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrorBody, type FieldError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { decodeKubernetesProtobuf, encodeKubernetesProtobuf } from '../../protobuf/decode.js';
import { BUILTIN_DEFINITIONS } from '../definitions.js';
import { CONTROLLER_REVISION, validateControllerRevision, validateControllerRevisionUpdate } from './controller-revision.js';

const render = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);
const revision = (extra: Record<string, unknown>): KubeObject => ({ metadata: { name: 'r', namespace: 'default' }, ...extra });

describe('ControllerRevision (pkg/apis/apps/validation ValidateControllerRevision / ValidateControllerRevisionUpdate)', () => {
  it('accepts data with a non-negative revision', () => {
    assert.deepEqual(validateControllerRevision(revision({ data: { a: 1 }, revision: 0 })), []);
  });

  it('requires data and refuses a negative revision', () => {
    assert.deepEqual(render(validateControllerRevision(revision({ data: null, revision: -2 }))), [
      'data: Required value: data is mandatory',
      'revision: Invalid value: -2: must be greater than or equal to 0',
    ]);
  });

  it('keeps data immutable but lets revision change', () => {
    const old = revision({ data: { a: 1 }, revision: 1 });
    assert.deepEqual(validateControllerRevisionUpdate(revision({ data: { a: 1 }, revision: 7 }), old), []);
    assert.deepEqual(render(validateControllerRevisionUpdate(revision({ data: { b: 2 }, revision: 1 }), old)), [
      'data: Invalid value: runtime.Unknown{TypeMeta:runtime.TypeMeta{APIVersion:"", Kind:""}, Raw:[]uint8{0x7b, 0x22, 0x62, 0x22, 0x3a, 0x32, 0x7d}, ContentEncoding:"", ContentType:"application/json"}: field is immutable',
    ]);
  });

  it('prints the controller as <kind>.<group>/<name> (printControllerRevision)', () => {
    const now = new Date();
    const owned = revision({ revision: 3 });
    owned.metadata.creationTimestamp = now.toISOString();
    owned.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'u', controller: true }];
    assert.deepEqual(CONTROLLER_REVISION.printer?.row(owned, now), ['r', 'statefulset.apps/web', 3, '0s']);
    owned.metadata.ownerReferences = [];
    assert.equal(CONTROLLER_REVISION.printer?.row(owned, now)[1], '<none>');
  });

  it('survives protobuf, its raw data included', () => {
    const obj = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name: 'r', namespace: 'default' },
      data: { spec: { x: [1, 'a'] } },
      revision: 2,
    };
    assert.deepEqual(decodeKubernetesProtobuf(encodeKubernetesProtobuf(obj, BUILTIN_DEFINITIONS), BUILTIN_DEFINITIONS), obj);
  });
});
