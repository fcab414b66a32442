import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// ValidatingAdmissionPolicy and its bindings through the real kubectl: issue 22, R11.140–R11.172, scenarios
// VAP-01, VAP-02, VAP-03, VAP-04, VAP-05.

function policy(name: string, spec: Record<string, unknown>): string {
  return JSON.stringify({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name }, spec });
}

function binding(name: string, spec: Record<string, unknown>): string {
  return JSON.stringify({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec,
  });
}

function deployment(name: string, namespace: string, replicas: number): string {
  const labels = { app: name };
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  });
}

function configMap(name: string, namespace: string, labels: Record<string, string>, data: Record<string, string> = {}): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels }, data });
}

const DEPLOYMENTS = {
  resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] }],
};
const CONFIG_MAPS = {
  resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] }],
};

describe('kubectl: ValidatingAdmissionPolicy', () => {
  let ts: TestServer;

  /** Waits until a server-side dry run of `manifest` is refused (or, with `admitted`, accepted) — the policy is live. */
  async function untilEffective(manifest: string, admitted = false): Promise<void> {
    await waitFor(
      async () => {
        const r = await ts.kubectl(['create', '--dry-run=server', '-f', '-'], { input: manifest });
        return (r.code === 0) === admitted ? true : undefined;
      },
      { timeoutMs: 10_000, what: 'the policy binding to take effect' },
    );
  }

  before(async () => {
    ts = await startTestServer();
    await ts.kubectlOk(['create', 'namespace', 'vap-plain']);
    for (const ns of ['msg', 'params']) {
      await ts.kubectlOk(['create', 'namespace', `vap-${ns}`]);
      await ts.kubectlOk(['label', 'namespace', `vap-${ns}`, `vap=${ns}`]);
    }
  });
  after(async () => {
    await ts?.stop();
  });

  it('refuses Deployments with more than 5 replicas as a 422, then as a 403 with reason Forbidden (VAP-01)', async () => {
    await ts.kubectlOk(['create', '-f', '-'], {
      input: policy('replicas-limit', {
        matchConstraints: { ...DEPLOYMENTS, namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'vap-plain' } } },
        validations: [{ expression: 'object.spec.replicas <= 5' }],
      }),
    });
    await ts.kubectlOk(['create', '-f', '-'], {
      input: binding('replicas-binding', { policyName: 'replicas-limit', validationActions: ['Deny'] }),
    });
    await untilEffective(deployment('web', 'vap-plain', 6));
    const r = await ts.kubectl(['create', '-f', '-'], { input: deployment('web', 'vap-plain', 6) });
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr.trim(),
      `The deployments "web" is invalid: : ValidatingAdmissionPolicy 'replicas-limit' with binding 'replicas-binding' denied request: failed expression: object.spec.replicas <= 5`,
    );
    await ts.kubectlOk(['create', '-f', '-'], { input: deployment('small', 'vap-plain', 5) });
    const scale = await ts.kubectl(['patch', 'deployment', 'small', '-n', 'vap-plain', '--type=merge', '-p', '{"spec":{"replicas":7}}']);
    assert.equal(scale.code, 1);
    assert.match(scale.stderr, /denied request: failed expression: object\.spec\.replicas <= 5/);

    await ts.kubectlOk([
      'patch',
      'validatingadmissionpolicy',
      'replicas-limit',
      '--type=json',
      '-p',
      '[{"op":"add","path":"/spec/validations/0/reason","value":"Forbidden"}]',
    ]);
    await waitFor(
      async () =>
        (await ts.kubectl(['create', '-f', '-'], { input: deployment('web', 'vap-plain', 6) })).stderr.includes('Forbidden')
          ? true
          : undefined,
      { timeoutMs: 10_000, what: 'the Forbidden reason' },
    );
    const forbidden = await ts.kubectl(['create', '-f', '-'], { input: deployment('web', 'vap-plain', 6) });
    assert.equal(
      forbidden.stderr.trim(),
      `Error from server (Forbidden): error when creating "STDIN": deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'replicas-limit' with binding 'replicas-binding' denied request: failed expression: object.spec.replicas <= 5`,
    );
  });

  it('lists policies and bindings with the columns kubectl shows', async () => {
    const policies = await ts.kubectlOk(['get', 'validatingadmissionpolicies', 'replicas-limit']);
    assert.match(policies, /^NAME\s+VALIDATIONS\s+PARAMKIND\s+AGE\nreplicas-limit\s+1\s+<unset>\s+\d+s\n$/);
    await waitFor(
      async () => {
        const out = await ts.kubectlOk([
          'get',
          'validatingadmissionpolicy',
          'replicas-limit',
          '-o',
          'jsonpath={.metadata.generation}/{.status.observedGeneration}',
        ]);
        return out === '2/2' ? true : undefined;
      },
      { timeoutMs: 10_000, what: 'status.observedGeneration to catch up with the patched policy' },
    );
    const bindings = await ts.kubectlOk(['get', 'validatingadmissionpolicybindings', 'replicas-binding']);
    assert.match(bindings, /^NAME\s+POLICYNAME\s+PARAMREF\s+AGE\nreplicas-binding\s+replicas-limit\s+<unset>\s+\d+s\n$/);
  });

  it('words the denial with messageExpression, only in namespaces the binding selects', async () => {
    await ts.kubectlOk(['create', '-f', '-'], {
      input: policy('data-size', {
        matchConstraints: CONFIG_MAPS,
        variables: [{ name: 'keys', expression: 'has(object.data) ? size(object.data) : 0' }],
        validations: [
          {
            expression: 'variables.keys <= 1',
            messageExpression: "'configmap ' + object.metadata.name + ' has ' + string(variables.keys) + ' keys'",
          },
        ],
      }),
    });
    await ts.kubectlOk(['create', '-f', '-'], {
      input: binding('data-size-binding', {
        policyName: 'data-size',
        validationActions: ['Deny'],
        matchResources: { namespaceSelector: { matchLabels: { vap: 'msg' } } },
      }),
    });
    const big = configMap('big', 'vap-msg', {}, { a: '1', b: '2' });
    await untilEffective(big);
    const r = await ts.kubectl(['create', '-f', '-'], { input: big });
    assert.equal(
      r.stderr.trim(),
      `The configmaps "big" is invalid: : ValidatingAdmissionPolicy 'data-size' with binding 'data-size-binding' denied request: configmap big has 2 keys`,
    );
    await ts.kubectlOk(['create', '-f', '-'], { input: configMap('big', 'vap-plain', {}, { a: '1', b: '2' }) });
  });

  it('reads params from a ConfigMap named by paramRef, and denies while it is missing (VAP-03)', async () => {
    await ts.kubectlOk(['create', '-f', '-'], {
      input: policy('params-limit', {
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        matchConstraints: { ...DEPLOYMENTS, namespaceSelector: { matchLabels: { vap: 'params' } } },
        validations: [
          { expression: 'object.spec.replicas <= int(params.data.max)', messageExpression: "'at most ' + params.data.max + ' replicas'" },
        ],
      }),
    });
    await ts.kubectlOk(['create', '-f', '-'], {
      input: binding('params-binding', {
        policyName: 'params-limit',
        validationActions: ['Deny'],
        paramRef: { name: 'limits', namespace: 'vap-params', parameterNotFoundAction: 'Deny' },
      }),
    });
    await untilEffective(deployment('api', 'vap-params', 2));
    const missing = await ts.kubectl(['create', '-f', '-'], { input: deployment('api', 'vap-params', 2) });
    assert.equal(
      missing.stderr.trim(),
      "The deployments \"api\" is invalid: : ValidatingAdmissionPolicy 'params-limit' with binding 'params-binding' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
    );
    await ts.kubectlOk(['create', 'configmap', 'limits', '-n', 'vap-params', '--from-literal=max=3']);
    await untilEffective(deployment('api', 'vap-params', 2), true);
    const tooMany = await ts.kubectl(['create', '-f', '-'], { input: deployment('api', 'vap-params', 4) });
    assert.match(tooMany.stderr, /with binding 'params-binding' denied request: at most 3 replicas$/m);
    await ts.kubectlOk(['create', '-f', '-'], { input: deployment('api', 'vap-params', 3) });
    const bindings = await ts.kubectlOk(['get', 'validatingadmissionpolicybindings', 'params-binding']);
    assert.match(bindings, /params-binding\s+params-limit\s+vap-params\/limits\s+/);
  });

  it('prints a Warn action as a kubectl warning and admits; an Audit action admits silently (VAP-02)', async () => {
    await ts.kubectlOk(['create', '-f', '-'], {
      input: policy('name-prefix', {
        matchConstraints: { ...CONFIG_MAPS, objectSelector: { matchLabels: { prefix: 'checked' } } },
        validations: [{ expression: "object.metadata.name.startsWith('ok-')" }],
      }),
    });
    await ts.kubectlOk(['create', '-f', '-'], {
      input: binding('name-prefix-warn', {
        policyName: 'name-prefix',
        validationActions: ['Warn'],
        matchResources: { namespaceSelector: { matchLabels: { vap: 'msg' } } },
      }),
    });
    await ts.kubectlOk(['create', '-f', '-'], {
      input: binding('name-prefix-audit', {
        policyName: 'name-prefix',
        validationActions: ['Audit'],
        matchResources: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'vap-plain' } } },
      }),
    });
    const warned = configMap('warned', 'vap-msg', { prefix: 'checked' });
    await waitFor(
      async () =>
        (await ts.kubectl(['create', '--dry-run=server', '-f', '-'], { input: warned })).stderr.includes('Warning') ? true : undefined,
      { timeoutMs: 10_000, what: 'the Warn binding' },
    );
    const r = await ts.kubectl(['create', '-f', '-'], { input: warned });
    assert.equal(r.code, 0);
    assert.equal(
      r.stderr.trim(),
      "Warning: Validation failed for ValidatingAdmissionPolicy 'name-prefix' with binding 'name-prefix-warn': failed expression: object.metadata.name.startsWith('ok-')",
    );
    const audited = await ts.kubectl(['create', '-f', '-'], { input: configMap('audited', 'vap-plain', { prefix: 'checked' }) });
    assert.equal(audited.code, 0);
    assert.equal(audited.stderr, '');
  });

  it('refuses a binding with both Deny and Warn, and policies whose expressions do not compile (VAP-05)', async () => {
    const both = await ts.kubectl(['create', '-f', '-'], {
      input: binding('both', { policyName: 'name-prefix', validationActions: ['Deny', 'Warn'] }),
    });
    assert.equal(
      both.stderr.trim(),
      'The ValidatingAdmissionPolicyBinding "both" is invalid: spec.validationActions: Invalid value: []admissionregistration.ValidationAction{"Deny", "Warn"}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
    );
    const broken = await ts.kubectl(['create', '-f', '-'], {
      input: policy('broken', {
        matchConstraints: CONFIG_MAPS,
        validations: [{ expression: 'object.spec.replicas >' }, { expression: 'object.spec.enabled' }],
      }),
    });
    assert.equal(broken.code, 1);
    assert.match(
      broken.stderr,
      /^The ValidatingAdmissionPolicy "broken" is invalid: \n\* spec\.validations\[0\]\.expression: Invalid value: "object\.spec\.replicas >": compilation failed: ERROR: <input>:1:\d+: /,
    );
    assert.match(
      broken.stderr,
      /\* spec\.validations\[1\]\.expression: Invalid value: "object\.spec\.enabled": must evaluate to bool but got dyn$/m,
    );
    assert.equal((await ts.request('GET', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/broken')).status, 404);
  });

  it("checks permissions with the CEL authorizer: the requester's and a service account's (R11.137)", async () => {
    await ts.kubectlOk(['create', '-f', '-'], {
      input: policy('authz', {
        matchConstraints: { ...CONFIG_MAPS, objectSelector: { matchLabels: { authz: 'checked' } } },
        validations: [
          { expression: "authorizer.requestResource.check('create').allowed()" },
          {
            expression:
              "authorizer.serviceAccount('vap-plain', 'nobody').group('').resource('secrets').namespace('vap-plain').check('get').allowed()",
            message: 'nobody may not read secrets',
          },
        ],
      }),
    });
    await ts.kubectlOk(['create', '-f', '-'], { input: binding('authz', { policyName: 'authz', validationActions: ['Deny'] }) });
    const checked = configMap('checked', 'vap-plain', { authz: 'checked' });
    await untilEffective(checked);
    const r = await ts.kubectl(['create', '-f', '-'], { input: checked });
    assert.equal(
      r.stderr.trim(),
      `The configmaps "checked" is invalid: : ValidatingAdmissionPolicy 'authz' with binding 'authz' denied request: nobody may not read secrets`,
    );
  });

  it('follows failurePolicy on a runtime error: Fail denies, Ignore admits (VAP-04)', async () => {
    for (const failurePolicy of ['Fail', 'Ignore']) {
      const name = `runtime-${failurePolicy.toLowerCase()}`;
      await ts.kubectlOk(['create', '-f', '-'], {
        input: policy(name, {
          failurePolicy,
          matchConstraints: { ...CONFIG_MAPS, objectSelector: { matchLabels: { runtime: failurePolicy } } },
          validations: [{ expression: "object.data.missing == 'x'" }],
        }),
      });
      await ts.kubectlOk(['create', '-f', '-'], { input: binding(name, { policyName: name, validationActions: ['Deny'] }) });
    }
    const failing = configMap('fails', 'vap-plain', { runtime: 'Fail' }, { k: 'v' });
    await untilEffective(failing);
    const r = await ts.kubectl(['create', '-f', '-'], { input: failing });
    assert.equal(
      r.stderr.trim(),
      "The configmaps \"fails\" is invalid: : ValidatingAdmissionPolicy 'runtime-fail' with binding 'runtime-fail' denied request: expression 'object.data.missing == 'x'' resulted in error: no such key: missing",
    );
    await ts.kubectlOk(['create', '-f', '-'], { input: configMap('ignored', 'vap-plain', { runtime: 'Ignore' }, { k: 'v' }) });
  });

  it('reports in status.typeChecking the expressions that do not type-check against the matched kinds (R11.174)', async () => {
    await ts.kubectlOk(['create', '-f', '-'], {
      input: policy('typed', {
        matchConstraints: {
          resourceRules: [
            { apiGroups: ['', 'apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps', 'deployments'] },
          ],
        },
        validations: [
          { expression: 'object.spec.replicas <= 5', messageExpression: "'too many: ' + string(object.spec.replicas)" },
          { expression: "object.metadata.name != ''" },
        ],
      }),
    });
    const status = async (): Promise<string | undefined> => {
      const out = (await ts.kubectlOk(['get', 'validatingadmissionpolicy', 'typed', '-o', 'jsonpath={.status}'])).trim();
      return out.includes('"typeChecking"') ? out : undefined;
    };
    const got = JSON.parse(await waitFor(status, { timeoutMs: 10_000, what: 'the type checking status' }));
    const warning = (expression: string): string =>
      `/v1, Kind=ConfigMap: ERROR: <input>:1:${expression.indexOf('.spec') + 1}: undefined field 'spec'\n | ${expression}\n | ${'.'.repeat(expression.indexOf('.spec'))}^\n`;
    assert.deepEqual(got, {
      observedGeneration: 1,
      typeChecking: {
        expressionWarnings: [
          { fieldRef: 'spec.validations[0].expression', warning: warning('object.spec.replicas <= 5') },
          { fieldRef: 'spec.validations[0].messageExpression', warning: warning("'too many: ' + string(object.spec.replicas)") },
        ],
      },
    });
  });
});
