import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StatusError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { resourceInfo } from '../../kinds/define/resource.js';
import { admissionAttributes } from '../../registry/admission/attributes.js';
import { readReviewResponse } from './admission-review.js';
import { mutatingAdmissionWebhook } from './mutating-webhook-plugin.js';
import { validatingAdmissionWebhook } from './validating-webhook-plugin.js';
import type { WebhookTransport } from './webhook-client.js';
import { staticWebhookSource, type WebhookEntry } from './webhook-configurations.js';

// The dispatchers step by step against an in-memory transport: what each webhook is sent and how its answer is
// applied (R11.50–R11.78).

const CONFIG_MAPS = resourceInfo({ group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true });
const USER = { name: 'alice', uid: 'u-1', groups: ['devs', 'system:authenticated'] };

type Answer = (request: Record<string, any>) => Record<string, unknown>;

function transport(answers: Record<string, Answer>): WebhookTransport & { calls: { url: string; request: Record<string, any> }[] } {
  const calls: { url: string; request: Record<string, any> }[] = [];
  return {
    calls,
    post: async (clientConfig, review) => {
      const request = (review as { request: Record<string, any> }).request;
      const url = String(clientConfig.url);
      calls.push({ url, request: structuredClone(request) });
      const answer = answers[url];
      if (answer === undefined) throw new Error(`failed to call webhook: Post "${url}": connection refused`);
      return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: request.uid, ...answer(request) } };
    },
  };
}

const hook = (name: string, extra: Record<string, unknown> = {}): WebhookEntry => ({
  name,
  configuration: name,
  clientConfig: { url: name },
  rules: [{ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], scope: '*' }],
  failurePolicy: 'Fail',
  matchPolicy: 'Equivalent',
  namespaceSelector: {},
  objectSelector: {},
  sideEffects: 'None',
  timeoutSeconds: 10,
  admissionReviewVersions: ['v1'],
  reinvocationPolicy: 'Never',
  ...extra,
});

const match = { namespaceLabels: async () => ({}), served: () => [CONFIG_MAPS] };
const configMap = (labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cm', namespace: 'ns', labels },
  data: { k: 'v' },
});
const patch = (ops: unknown[]) => ({
  allowed: true,
  patchType: 'JSONPatch',
  patch: Buffer.from(JSON.stringify(ops)).toString('base64'),
});
const addLabel = (key: string) => () => patch([{ op: 'add', path: `/metadata/labels/${key}`, value: 'y' }]);

describe('AdmissionReview v1 request and response (R11.60–R11.73)', () => {
  it('sends every field kube-apiserver sends for a CREATE, with a fresh uid per call', async () => {
    const t = transport({ a: () => ({ allowed: true }), b: () => ({ allowed: true }) });
    const plugin = validatingAdmissionWebhook(staticWebhookSource([hook('a'), hook('b')]), { client: t, match });
    await plugin.validate(
      admissionAttributes({
        operation: 'CREATE',
        resource: CONFIG_MAPS,
        object: configMap(),
        user: USER,
        options: { fieldManager: 'kubectl' },
      }),
    );
    const [first, second] = t.calls;
    const { uid, ...rest } = first?.request ?? {};
    assert.match(String(uid), /^[0-9a-f-]{36}$/);
    assert.notEqual(uid, second?.request.uid);
    assert.deepEqual(rest, {
      kind: { group: '', version: 'v1', kind: 'ConfigMap' },
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      requestKind: { group: '', version: 'v1', kind: 'ConfigMap' },
      requestResource: { group: '', version: 'v1', resource: 'configmaps' },
      name: 'cm',
      namespace: 'ns',
      operation: 'CREATE',
      userInfo: { username: 'alice', uid: 'u-1', groups: ['devs', 'system:authenticated'] },
      object: configMap(),
      oldObject: null,
      dryRun: false,
      options: { fieldManager: 'kubectl', kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
    });
  });

  it('refuses responses of another kind, without response, with another uid, or patching from a validating webhook', () => {
    const ok = { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' };
    const refusal = (body: unknown, flavour: 'mutating' | 'validating' = 'validating'): string => {
      try {
        readReviewResponse(body, 'u1', flavour);
      } catch (err) {
        return (err as Error).message;
      }
      return 'accepted';
    };
    const prefix = 'received invalid webhook response: ';
    assert.equal(
      refusal({ apiVersion: 'v1', kind: 'Status' }),
      `${prefix}expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /v1, Kind=Status`,
    );
    assert.equal(refusal({}), `${prefix}expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind=`);
    assert.equal(refusal(ok), `${prefix}webhook response was absent`);
    assert.equal(refusal({ ...ok, response: { uid: 'other', allowed: true } }), `${prefix}expected response.uid="u1", got "other"`);
    assert.equal(
      refusal({ ...ok, response: { uid: 'u1', allowed: true, patch: 'W10=' } }),
      `${prefix}validating webhook may not return response.patch`,
    );
    assert.equal(
      refusal({ ...ok, response: { uid: 'u1', allowed: true, patch: 'W10=' } }, 'mutating'),
      `${prefix}webhook returned response.patch but not response.patchType`,
    );
  });
});

describe('MutatingAdmissionWebhook', () => {
  it('calls webhooks in order, each seeing the previous patch, and applies them to the stored object (R11.50, R11.52)', async () => {
    const t = transport({ a: addLabel('a'), b: addLabel('b') });
    const plugin = mutatingAdmissionWebhook(staticWebhookSource([hook('a'), hook('b')]), { client: t, match });
    const attributes = admissionAttributes({ operation: 'CREATE', resource: CONFIG_MAPS, object: configMap(), user: USER });
    await plugin.admit(attributes);
    assert.deepEqual(
      t.calls.map((c) => [c.url, c.request.object.metadata.labels]),
      [
        ['a', {}],
        ['b', { a: 'y' }],
      ],
    );
    assert.deepEqual(attributes.object?.metadata.labels, { a: 'y', b: 'y' });
  });

  it('reinvokes an IfNeeded webhook once when a later webhook changed the object, not a Never one (R11.53)', async () => {
    const t = transport({ a: () => ({ allowed: true }), b: addLabel('b'), c: () => ({ allowed: true }) });
    const hooks = [hook('a', { reinvocationPolicy: 'IfNeeded' }), hook('b'), hook('c', { reinvocationPolicy: 'IfNeeded' })];
    await mutatingAdmissionWebhook(staticWebhookSource(hooks), { client: t, match }).admit(
      admissionAttributes({ operation: 'CREATE', resource: CONFIG_MAPS, object: configMap(), user: USER }),
    );
    assert.deepEqual(
      t.calls.map((c) => c.url),
      ['a', 'b', 'c', 'a'],
    );
  });

  it('refuses a patch on DELETE with the InternalError Kubernetes words (R11.78)', async () => {
    const t = transport({ a: addLabel('a') });
    const plugin = mutatingAdmissionWebhook(staticWebhookSource([hook('a')]), { client: t, match });
    await assert.rejects(
      plugin.admit(admissionAttributes({ operation: 'DELETE', resource: CONFIG_MAPS, oldObject: configMap(), user: USER })),
      (err: StatusError) =>
        err.code === 500 &&
        err.message ===
          'Internal error occurred: admission webhook "a" attempted to modify the object, which is not supported for this operation',
    );
  });

  it('skips objects the objectSelector does not select, old or new (R11.45)', async () => {
    const t = transport({ a: () => ({ allowed: true }) });
    const hooks = [hook('a', { objectSelector: { matchLabels: { watch: 'yes' } } })];
    const plugin = mutatingAdmissionWebhook(staticWebhookSource(hooks), { client: t, match });
    await plugin.admit(admissionAttributes({ operation: 'CREATE', resource: CONFIG_MAPS, object: configMap(), user: USER }));
    assert.equal(t.calls.length, 0);
    await plugin.admit(
      admissionAttributes({
        operation: 'UPDATE',
        resource: CONFIG_MAPS,
        object: configMap(),
        oldObject: configMap({ watch: 'yes' }),
        user: USER,
      }),
    );
    assert.equal(t.calls.length, 1);
  });
});

describe('ValidatingAdmissionWebhook', () => {
  const attributes = (extra: Record<string, unknown> = {}) =>
    admissionAttributes({ operation: 'CREATE', resource: CONFIG_MAPS, object: configMap(), user: USER, ...extra });

  it('turns a denial into the webhook’s status with code at least 400 (R11.75)', async () => {
    const t = transport({ a: () => ({ allowed: false, status: { code: 200, message: 'nope' } }) });
    await assert.rejects(
      validatingAdmissionWebhook(staticWebhookSource([hook('a')]), { client: t, match }).validate(attributes()),
      (err: StatusError) => err.code === 400 && err.message === 'admission webhook "a" denied the request: nope',
    );
  });

  it('Fail reports a call failure as InternalError, Ignore lets the request through (R11.57, R11.76)', async () => {
    const t = transport({});
    await assert.rejects(
      validatingAdmissionWebhook(staticWebhookSource([hook('dead')]), { client: t, match }).validate(attributes()),
      (err: StatusError) =>
        err.code === 500 &&
        err.message === 'Internal error occurred: failed calling webhook "dead": failed to call webhook: Post "dead": connection refused',
    );
    await validatingAdmissionWebhook(staticWebhookSource([hook('dead', { failurePolicy: 'Ignore' })]), { client: t, match }).validate(
      attributes(),
    );
  });

  it('refuses a dry run to a webhook with side effects regardless of failurePolicy (R11.36)', async () => {
    const t = transport({ a: () => ({ allowed: true }) });
    const hooks = [hook('a', { sideEffects: 'Unknown', failurePolicy: 'Ignore' })];
    await assert.rejects(
      validatingAdmissionWebhook(staticWebhookSource(hooks), { client: t, match }).validate(attributes({ dryRun: true })),
      (err: StatusError) => err.code === 400 && err.message === 'admission webhook "a" does not support dry run',
    );
    assert.equal(t.calls.length, 0);
  });

  it('collects warnings from every webhook (R11.70)', async () => {
    const t = transport({ a: () => ({ allowed: true, warnings: ['one'] }), b: () => ({ allowed: true, warnings: ['two'] }) });
    const a = attributes();
    await validatingAdmissionWebhook(staticWebhookSource([hook('a'), hook('b')]), { client: t, match }).validate(a);
    assert.deepEqual(a.warnings, ['one', 'two']);
  });

  it('matchConditions: a false condition skips, an erroring one refuses under Fail with 403 and skips under Ignore (R11.47, R11.48)', async () => {
    const t = transport({ w1: () => ({ allowed: true }), w2: () => ({ allowed: true }) });
    const conditions = [
      { name: 'y', expression: "object.metadata.name.startsWith('y')" },
      { name: 'm', expression: "object.data.missing == 'v'" },
    ];
    const skipped = [
      hook('w1', { matchConditions: [{ name: 'a', expression: "object.metadata.name.startsWith('x')" }] }),
      hook('w2', { matchConditions: conditions }),
    ];
    await validatingAdmissionWebhook(staticWebhookSource(skipped), { client: t, match }).validate(attributes());
    assert.equal(t.calls.length, 0, 'a false condition wins over an erroring one');
    const y1 = { ...configMap(), metadata: { name: 'y1', namespace: 'ns' } };
    await assert.rejects(
      validatingAdmissionWebhook(staticWebhookSource([hook('w2', { matchConditions: conditions })]), { client: t, match }).validate(
        attributes({ object: y1 }),
      ),
      (err: StatusError) =>
        err.code === 403 &&
        err.message === `configmaps "y1" is forbidden: expression 'object.data.missing == 'v'' resulted in error: no such key: missing`,
    );
    const ignoring = [hook('w2', { matchConditions: conditions, failurePolicy: 'Ignore' })];
    await validatingAdmissionWebhook(staticWebhookSource(ignoring), { client: t, match }).validate(attributes({ object: y1 }));
    assert.equal(t.calls.length, 0);
  });

  it('never calls webhooks for the server’s own writes nor for webhook configurations (R11.34)', async () => {
    const t = transport({ a: () => ({ allowed: false }) });
    const plugin = validatingAdmissionWebhook(
      staticWebhookSource([hook('a', { rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }] })]),
      {
        client: t,
        match,
      },
    );
    await plugin.validate(attributes({ user: undefined }));
    const vwc = resourceInfo({
      group: 'admissionregistration.k8s.io',
      version: 'v1',
      kind: 'ValidatingWebhookConfiguration',
      plural: 'validatingwebhookconfigurations',
      namespaced: false,
    });
    await plugin.validate(
      admissionAttributes({
        operation: 'DELETE',
        resource: vwc,
        oldObject: { apiVersion: 'x', kind: 'y', metadata: { name: 'c' } },
        user: USER,
      }),
    );
    assert.equal(t.calls.length, 0);
  });
});
