import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrorBody } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { webhookConfigurationValidators, webhookDefaulter } from './webhook-validation.js';

const config = (webhooks: Record<string, unknown>[]): KubeObject => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  metadata: { name: 'cfg' },
  webhooks,
});
const good = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'check.example.com',
  clientConfig: { url: 'https://127.0.0.1:8443/validate' },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...extra,
});
const validating = webhookConfigurationValidators('validating');
const mutating = webhookConfigurationValidators('mutating');
const rendered = (errs: ReturnType<typeof validating.validate>): string[] => errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);

describe('webhook configuration defaults (R11.5)', () => {
  it('fills every v1 default of a mutating webhook, rule scope and service port included (ADM-02)', () => {
    const obj = config([
      {
        name: 'm.example.com',
        clientConfig: { service: { namespace: 'ns', name: 'svc' } },
        rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }],
      },
    ]);
    webhookDefaulter('mutating')(obj);
    assert.deepEqual(obj.webhooks, [
      {
        name: 'm.example.com',
        clientConfig: { service: { namespace: 'ns', name: 'svc', port: 443 } },
        rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], scope: '*' }],
        failurePolicy: 'Fail',
        matchPolicy: 'Equivalent',
        namespaceSelector: {},
        objectSelector: {},
        timeoutSeconds: 10,
        reinvocationPolicy: 'Never',
      },
    ]);
  });

  it('gives validating webhooks no reinvocationPolicy', () => {
    const obj = config([good()]);
    webhookDefaulter('validating')(obj);
    assert.equal((obj.webhooks as Record<string, unknown>[])[0]?.reinvocationPolicy, undefined);
  });
});

describe('ValidateValidatingWebhookConfiguration / ValidateMutatingWebhookConfiguration', () => {
  it('accepts a well-formed webhook', () => assert.deepEqual(validating.validate(config([good()])), []));

  it('reports ADM-01: short name, no sideEffects, timeout 31, operation GET (R11.8, R11.9, R11.11, R11.13)', () => {
    const hook = good({ name: 'short', timeoutSeconds: 31 });
    delete hook.sideEffects;
    hook.rules = [{ operations: ['GET'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }];
    assert.deepEqual(rendered(validating.validate(config([hook]))), [
      'webhooks[0].name: Invalid value: "short": should be a domain with at least three segments separated by dots',
      'webhooks[0].rules[0].operations[0]: Unsupported value: "GET": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
      'webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun',
      'webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
    ]);
  });

  it('refuses duplicate names, Some side effects and review versions without v1 (R11.8–R11.10)', () => {
    const hooks = [good(), good({ sideEffects: 'Some', admissionReviewVersions: ['v2', 'v2'] })];
    assert.deepEqual(rendered(validating.validate(config(hooks))), [
      'webhooks[1].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
      'webhooks[1].admissionReviewVersions[1]: Invalid value: "v2": duplicate version',
      'webhooks[1].admissionReviewVersions: Invalid value: []string{"v2", "v2"}: must include at least one of v1, v1beta1',
      'webhooks[1].name: Duplicate value: "check.example.com"',
    ]);
  });

  it('ratchets on update: a stored Unknown side effect and duplicate names stay accepted (R11.22)', () => {
    const old = config([good({ sideEffects: 'Unknown' }), good({ sideEffects: 'Unknown' })]);
    const next = config([good({ sideEffects: 'Unknown', timeoutSeconds: 5 }), good({ sideEffects: 'Unknown' })]);
    assert.deepEqual(validating.validateUpdate(next, old), []);
  });

  it('checks client configs: one of url or service, https only, no user, query or fragment, service paths (R11.16–R11.18)', () => {
    const hooks = [
      good({ name: 'a.example.com', clientConfig: {} }),
      good({ name: 'b.example.com', clientConfig: { url: 'http://u:p@host/x?q=1#f' } }),
      good({ name: 'c.example.com', clientConfig: { service: { namespace: '', name: 'svc', path: '/Validate//x', port: 0 } } }),
    ];
    assert.deepEqual(rendered(validating.validate(config(hooks))), [
      'webhooks[0].clientConfig: Required value: exactly one of url or service is required',
      `webhooks[1].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
      'webhooks[1].clientConfig.url: Invalid value: "u:p": user information is not permitted in the URL',
      'webhooks[1].clientConfig.url: Invalid value: "f": fragments are not permitted in the URL',
      'webhooks[1].clientConfig.url: Invalid value: "q=1": query parameters are not permitted in the URL',
      'webhooks[2].clientConfig.service.namespace: Required value: service namespace is required',
      'webhooks[2].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive',
      `webhooks[2].clientConfig.service.path: Invalid value: "/Validate//x": segment[0]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      'webhooks[2].clientConfig.service.path: Invalid value: "/Validate//x": segment[1] may not be empty',
    ]);
  });

  it('checks rule resources in list order (R11.15, quirk Q16) and wildcards', () => {
    const rule = (resources: string[], extra: Record<string, unknown> = {}) => ({
      operations: ['CREATE'],
      apiGroups: [''],
      apiVersions: ['v1'],
      resources,
      ...extra,
    });
    const hook = good({
      rules: [
        rule(['pods/status', 'pods/*']),
        rule(['pods/*', 'pods/status']),
        rule(['*', 'pods']),
        rule(['*/*', 'pods'], { scope: 'Everywhere', apiGroups: ['*', 'apps'] }),
      ],
    });
    assert.deepEqual(rendered(validating.validate(config([hook]))), [
      `webhooks[0].rules[1].resources[1]: Invalid value: "pods/status": if 'pods/*' is present, must not specify pods/status`,
      `webhooks[0].rules[2].resources: Invalid value: []string{"*", "pods"}: if '*' is present, must not specify other resources without subresources`,
      `webhooks[0].rules[3].apiGroups: Invalid value: []string{"*", "apps"}: if '*' is present, must not specify other API groups`,
      `webhooks[0].rules[3].resources: Invalid value: []string{"*/*", "pods"}: if '*/*' is present, must not specify other resources`,
      'webhooks[0].rules[3].scope: Unsupported value: "Everywhere": supported values: "*", "Cluster", "Namespaced"',
    ]);
  });

  it('compiles matchConditions with the CEL environment and checks names (R11.21)', () => {
    const hook = good({
      matchConditions: [
        { name: 'ok', expression: "object.metadata.name.startsWith('x')" },
        { name: 'ok', expression: 'params.x == 1' },
        { name: 'bad name!', expression: 'object.metadata.name' },
      ],
    });
    assert.deepEqual(rendered(validating.validate(config([hook]))), [
      `webhooks[0].matchConditions[1].expression: Invalid value: "params.x == 1": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params.x == 1\n | ^`,
      'webhooks[0].matchConditions[1].name: Duplicate value: "ok"',
      'webhooks[0].matchConditions[2].expression: Invalid value: "object.metadata.name": must evaluate to bool but got dyn',
      `webhooks[0].matchConditions[2].name: Invalid value: "bad name!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    ]);
  });

  it('refuses an unknown reinvocationPolicy on mutating webhooks only', () => {
    assert.deepEqual(rendered(mutating.validate(config([good({ reinvocationPolicy: 'Always' })]))), [
      'webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"',
    ]);
  });
});
