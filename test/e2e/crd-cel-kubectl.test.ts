import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CrdApi, crdApi } from '../support/crd-fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// CRD validation rules (x-kubernetes-validations) through the real kubectl: issue 22, R11.100–R11.126,
// scenarios CEL-01, CEL-02, CEL-03.

const CRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: scalers.cel.example.com
spec:
  group: cel.example.com
  scope: Namespaced
  names: {plural: scalers, singular: scaler, kind: Scaler}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations:
        - rule: "self.metadata.name.startsWith('s')"
          message: name must start with s
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: self.replicas <= self.maxReplicas
              messageExpression: "'replicas ' + string(self.replicas) + ' exceeds maxReplicas ' + string(self.maxReplicas)"
            - rule: "!has(self.mode) || self.mode != 'legacy'"
              reason: FieldValueForbidden
              fieldPath: .mode
            properties:
              replicas: {type: integer}
              maxReplicas: {type: integer}
              mode: {type: string}
              id:
                type: string
                x-kubernetes-validations:
                - {rule: self == oldSelf, message: id is immutable}
              tags:
                type: array
                maxItems: 20
                items: {type: string, maxLength: 63}
                x-kubernetes-validations:
                - rule: self.all(t, t.lowerAscii() == t)
                  message: tags must be lower case
          status:
            type: object
            properties:
              ready: {type: integer}
            x-kubernetes-validations:
            - {rule: self.ready >= 0, message: ready must not be negative}
`;

function scaler(name: string, spec: Record<string, unknown>): string {
  return JSON.stringify({ apiVersion: 'cel.example.com/v1', kind: 'Scaler', metadata: { name, namespace: 'default' }, spec });
}

describe('kubectl: CRD validation rules (CEL)', () => {
  let ts: TestServer;
  let api: CrdApi;

  before(async () => {
    ts = await startTestServer();
    api = crdApi(ts);
    await ts.kubectlOk(['apply', '-f', '-'], { input: CRD });
    await api.waitForCrd(
      'scalers.cel.example.com',
      (c) => (c.status?.conditions ?? []).some((x: { type: string; status: string }) => x.type === 'Established' && x.status === 'True'),
      'Scaler CRD Established',
    );
  });
  after(async () => {
    await ts?.stop();
  });

  it('admits an object every rule accepts', async () => {
    await ts.kubectlOk(['apply', '-f', '-'], { input: scaler('s-ok', { replicas: 2, maxReplicas: 3, id: 'a', tags: ['x'] }) });
  });

  it('prints every failing rule as kubectl prints a 422, with messageExpression, message, reason and fieldPath', async () => {
    const r = await ts.kubectl(['apply', '-f', '-'], {
      input: scaler('bad', { replicas: 5, maxReplicas: 3, mode: 'legacy', tags: ['Upper'] }),
    });
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr.trim(),
      'The Scaler "bad" is invalid: \n' +
        '* <nil>: Invalid value: "object": name must start with s\n' +
        '* spec: Invalid value: "object": replicas 5 exceeds maxReplicas 3\n' +
        "* spec.mode: Forbidden: failed rule: !has(self.mode) || self.mode != 'legacy'\n" +
        '* spec.tags: Invalid value: "array": tags must be lower case',
    );
  });

  it('runs transition rules on update only, against the old value', async () => {
    await ts.kubectlOk(['create', '-f', '-'], { input: scaler('s-imm', { replicas: 1, maxReplicas: 1, id: 'first' }) });
    const r = await ts.kubectl(['replace', '-f', '-'], { input: scaler('s-imm', { replicas: 1, maxReplicas: 1, id: 'second' }) });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /The Scaler "s-imm" is invalid: spec\.id: Invalid value: "string": id is immutable/);
    const patch = await ts.kubectl(['patch', 'scaler', 's-imm', '--type=merge', '-p', '{"spec":{"replicas":4}}']);
    assert.equal(patch.code, 1);
    assert.match(patch.stderr, /The Scaler "s-imm" is invalid: spec: Invalid value: "object": replicas 4 exceeds maxReplicas 1/);
    await ts.kubectlOk(['patch', 'scaler', 's-imm', '--type=merge', '-p', '{"spec":{"maxReplicas":2}}']);
  });

  it('checks the rules on the status subresource', async () => {
    await ts.kubectlOk(['apply', '-f', '-'], { input: scaler('s-status', { replicas: 1, maxReplicas: 1 }) });
    const r = await ts.kubectl(['patch', 'scaler', 's-status', '--subresource=status', '--type=merge', '-p', '{"status":{"ready":-1}}']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /The Scaler "s-status" is invalid: status: Invalid value: "object": ready must not be negative/);
    await ts.kubectlOk(['patch', 'scaler', 's-status', '--subresource=status', '--type=merge', '-p', '{"status":{"ready":1}}']);
  });

  it('refuses a CRD whose rule does not compile, with the rule and cel-go error (CEL-01)', async () => {
    const broken = CRD.replace('scalers.cel.example.com', 'brokens.cel.example.com')
      .replace('{plural: scalers, singular: scaler, kind: Scaler}', '{plural: brokens, singular: broken, kind: Broken}')
      .replace('self.replicas <= self.maxReplicas', 'self.nope > 0');
    const r = await ts.kubectl(['apply', '-f', '-'], { input: broken });
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /The CustomResourceDefinition "brokens\.cel\.example\.com" is invalid: spec\.versions\[0\]\.schema\.openAPIV3Schema\.properties\[spec\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: apiextensions\.ValidationRule\{Rule:"self\.nope > 0", Message:"", MessageExpression:"'replicas ' \+ string\(self\.replicas\) \+ ' exceeds maxReplicas ' \+ string\(self\.maxReplicas\)", Reason:\(\*apiextensions\.FieldValueErrorReason\)\(nil\), FieldPath:"", OptionalOldSelf:\(\*bool\)\(nil\)\}: compilation failed: ERROR: <input>:1:5: undefined field 'nope'/,
    );
    assert.equal((await ts.request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/brokens.cel.example.com')).status, 404);
  });
});
