import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldErrorBody } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { NAMESPACE } from './namespace.js';

// Cases from pkg/apis/core/validation: ValidateNamespaceStatusUpdate (the phase follows deletionTimestamp).

const validate = NAMESPACE.strategy?.validateStatusUpdate;
const ns = (phase: string | undefined, deletionTimestamp?: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'team', ...(deletionTimestamp === undefined ? {} : { deletionTimestamp }) },
  status: phase === undefined ? {} : { phase },
});
const render = (obj: KubeObject): string[] => (validate?.(obj, obj) ?? []).map((e) => `${e.field}: ${fieldErrorBody(e)}`);

test('ValidateNamespaceStatusUpdate: Active while not deleted, Terminating once deleted', () => {
  assert.deepEqual(render(ns('Active')), []);
  assert.deepEqual(render(ns(undefined)), []);
  assert.deepEqual(render(ns('Terminating', '2024-05-01T10:00:00Z')), []);
  assert.deepEqual(render(ns('Terminating')), [
    'status.Phase: Invalid value: "Terminating": may only be \'Active\' if `deletionTimestamp` is empty',
  ]);
  assert.deepEqual(render(ns('Active', '2024-05-01T10:00:00Z')), [
    'status.Phase: Invalid value: "Active": may only be \'Terminating\' if `deletionTimestamp` is not empty',
  ]);
});
