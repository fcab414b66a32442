import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldErrorBody, type FieldError } from '../../../api/errors.js';
import type { KubeObject } from '../../../api/types.js';
import { validateConfigMapUpdate, validateSecret, validateSecretUpdate } from './config-data.js';

// Cases from pkg/apis/core/validation: ValidateSecret's per-type keys, ValidateSecretUpdate (type immutable,
// `immutable`) and ValidateConfigMapUpdate.

const render = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);
const secret = (fields: Record<string, unknown>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 's', namespace: 'default' },
  type: 'Opaque',
  ...fields,
});
const configMap = (fields: Record<string, unknown>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'c', namespace: 'default' },
  ...fields,
});

test('ValidateSecret: each well-known type has its keys', () => {
  assert.deepEqual(render(validateSecret(secret({ type: 'kubernetes.io/tls', data: { 'tls.crt': 'YQ==' } }))), [
    'data[tls.key]: Required value',
  ]);
  assert.deepEqual(render(validateSecret(secret({ type: 'kubernetes.io/basic-auth', data: {} }))), [
    'data[username]: Required value',
    'data[password]: Required value',
  ]);
  assert.deepEqual(render(validateSecret(secret({ type: 'kubernetes.io/dockerconfigjson' }))), ['data[.dockerconfigjson]: Required value']);
  assert.deepEqual(render(validateSecret(secret({ type: 'kubernetes.io/ssh-auth', data: { 'ssh-privatekey': '' } }))), [
    'data[ssh-privatekey]: Required value',
  ]);
  assert.deepEqual(render(validateSecret(secret({ type: 'kubernetes.io/service-account-token' }))), [
    'metadata.annotations[kubernetes.io/service-account.name]: Required value',
  ]);
  assert.deepEqual(render(validateSecret(secret({ type: 'example.com/custom', data: { a: 'YQ==' } }))), []);
});

test('ValidateSecretUpdate: the type never changes', () => {
  assert.deepEqual(render(validateSecretUpdate(secret({ type: 'example.com/other' }), secret({}))), [
    'type: Invalid value: "example.com/other": field is immutable',
  ]);
});

test('ValidateSecretUpdate and ValidateConfigMapUpdate: immutable objects keep their data and the flag', () => {
  const old = secret({ immutable: true, data: { a: 'YQ==' } });
  assert.deepEqual(
    render(validateSecretUpdate(secret({ immutable: true, data: { a: 'YQ==' }, metadata: { name: 's', labels: { x: 'y' } } }), old)),
    [],
  );
  assert.deepEqual(render(validateSecretUpdate(secret({ immutable: false, data: { a: 'Yg==' } }), old)), [
    'immutable: Forbidden: field is immutable when `immutable` is set',
    'data: Forbidden: field is immutable when `immutable` is set',
  ]);
  const oldConfig = configMap({ immutable: true, data: { a: '1' } });
  assert.deepEqual(
    render(validateConfigMapUpdate(configMap({ immutable: true, data: { a: '2' }, binaryData: { b: 'YQ==' } }), oldConfig)),
    ['data: Forbidden: field is immutable when `immutable` is set', 'binaryData: Forbidden: field is immutable when `immutable` is set'],
  );
  assert.deepEqual(render(validateConfigMapUpdate(configMap({ immutable: true, data: { a: '2' } }), configMap({ data: { a: '1' } }))), []);
});
