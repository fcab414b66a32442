import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../api/types.js';
import { chooseDefaultIngressClass } from './default-ingress-class.js';

const ingressClass = (name: string, created: string, isDefault?: string): KubeObject => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'IngressClass',
  metadata: {
    name,
    creationTimestamp: created,
    ...(isDefault === undefined ? {} : { annotations: { 'ingressclass.kubernetes.io/is-default-class': isDefault } }),
  },
});

test('no class is the default unless annotated exactly "true"', () => {
  assert.equal(chooseDefaultIngressClass([]), undefined);
  assert.equal(
    chooseDefaultIngressClass([ingressClass('a', '2026-01-01T00:00:00Z'), ingressClass('b', '2026-01-01T00:00:00Z', 'True')]),
    undefined,
  );
});

test('among several default classes the newest wins, equal ages going to the first name', () => {
  const older = ingressClass('older', '2026-01-01T00:00:00Z', 'true');
  const newer = ingressClass('newer', '2026-01-02T00:00:00Z', 'true');
  assert.equal(chooseDefaultIngressClass([older, newer, ingressClass('plain', '2026-01-03T00:00:00Z')]), 'newer');
  assert.equal(
    chooseDefaultIngressClass([
      ingressClass('zeta', '2026-01-01T00:00:00Z', 'true'),
      ingressClass('alpha', '2026-01-01T00:00:00Z', 'true'),
    ]),
    'alpha',
  );
});
