import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CustomResourceDefinition } from '../../api/crd-types.js';
import type { KubeObject } from '../../api/types.js';
import { ConversionFailure } from '../../registry/object-converter.js';
import { type ConversionTransport, WebhookConverter } from './webhook-converter.js';

// The converter against a scripted transport: what it sends (R11.89, R11.91) and how it judges answers
// (R11.92–R11.95, R11.99), with webhook_converter.go's messages.

const CRD = {
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    names: { plural: 'widgets', kind: 'Widget' },
    scope: 'Namespaced',
    versions: [
      { name: 'v1', served: true, storage: true },
      { name: 'v2', served: true, storage: false },
    ],
    conversion: {
      strategy: 'Webhook',
      webhook: { clientConfig: { url: 'https://conv.test/convert' }, conversionReviewVersions: ['v9', 'v1'] },
    },
  },
} as unknown as CustomResourceDefinition;

const widget = (name: string, apiVersion = 'example.com/v1', extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion,
  kind: 'Widget',
  metadata: { name, namespace: 'ns', uid: `uid-${name}`, resourceVersion: '7', labels: { a: '1' } },
  spec: { size: 1 },
  ...extra,
});

type Answer = (review: any) => unknown;

/** A transport answering with `answer`, recording every review; by default the webhook converts faithfully. */
function transport(answer?: Answer): ConversionTransport & { sent: any[] } {
  const sent: any[] = [];
  return {
    sent,
    async post(_config, review: any) {
      sent.push(review);
      if (answer !== undefined) return answer(review);
      const converted = review.request.objects.map((o: KubeObject) => ({ ...o, apiVersion: review.request.desiredAPIVersion }));
      return {
        apiVersion: review.apiVersion,
        kind: 'ConversionReview',
        response: { uid: review.request.uid, convertedObjects: converted, result: { status: 'Success' } },
      };
    },
  };
}

const respond = (review: any, response: Record<string, unknown>) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'ConversionReview',
  response: { uid: review.request.uid, result: { status: 'Success' }, ...response },
});

async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof ConversionFailure, String(err));
    return err.message;
  }
  assert.fail('expected a ConversionFailure');
}

describe('WebhookConverter', () => {
  it('sends one v1 review for the objects not yet at the desired version and puts the results in place (R11.89, R11.91)', async () => {
    const t = transport();
    const c = new WebhookConverter(CRD, t);
    const out = await c.convert([widget('a'), widget('b', 'example.com/v2'), widget('c')], 'example.com/v2', 'WidgetList');
    assert.deepEqual(
      out.map((o) => [o.metadata.name, o.apiVersion]),
      [
        ['a', 'example.com/v2'],
        ['b', 'example.com/v2'],
        ['c', 'example.com/v2'],
      ],
    );
    assert.equal(t.sent.length, 1);
    assert.equal(t.sent[0].apiVersion, 'apiextensions.k8s.io/v1', 'the first known of the preferred review versions');
    assert.equal(t.sent[0].request.desiredAPIVersion, 'example.com/v2');
    assert.deepEqual(
      t.sent[0].request.objects.map((o: KubeObject) => o.metadata.name),
      ['a', 'c'],
    );
  });

  it('makes no call when nothing needs converting (R11.89)', async () => {
    const t = transport();
    const objects = [widget('a', 'example.com/v2')];
    assert.deepEqual(await new WebhookConverter(CRD, t).convert(objects, 'example.com/v2'), objects);
    assert.equal(t.sent.length, 0);
  });

  it('keeps the original metadata but the webhook’s labels and annotations (R11.95)', async () => {
    const t = transport((review) =>
      respond(review, {
        convertedObjects: [
          {
            ...widget('a', 'example.com/v2'),
            metadata: { name: 'a', namespace: 'ns', uid: 'uid-a', generation: 5, annotations: { n: 'x' } },
          },
        ],
      }),
    );
    const [out] = await new WebhookConverter(CRD, t).convert([widget('a')], 'example.com/v2');
    assert.deepEqual(out?.metadata, { name: 'a', namespace: 'ns', uid: 'uid-a', resourceVersion: '7', annotations: { n: 'x' } });
  });

  it('words every bad answer as Kubernetes does (R11.93, R11.94)', async () => {
    const gvk = 'conversion webhook for example.com/v1, Kind=Widget';
    const cases: [Answer, string][] = [
      [
        () => ({ apiVersion: 'v1', kind: 'Status' }),
        `${gvk} failed: expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got /v1, Kind=Status`,
      ],
      [() => ({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview' }), `${gvk} failed: no response provided`],
      [(r) => respond(r, { uid: 'other' }), `${gvk} failed: expected response.uid="${'UID'}", got "other"`],
      [(r) => respond(r, { result: { status: 'Failure', message: 'cannot convert' } }), `${gvk} failed: cannot convert`],
      [(r) => respond(r, { result: { status: 'Failure' } }), `${gvk} failed: response.result.status was 'Failure', not 'Success'`],
      [(r) => respond(r, { convertedObjects: [] }), `${gvk} returned 0 objects, expected 1`],
      [
        (r) => respond(r, { convertedObjects: [widget('a', 'example.com/v3')] }),
        `${gvk} returned invalid object at index 0: invalid groupVersion (expected example.com/v2, received example.com/v3)`,
      ],
      [
        (r) => respond(r, { convertedObjects: [{ ...widget('a', 'example.com/v2'), kind: 'Gadget' }] }),
        `${gvk} returned invalid object at index 0: invalid kind (expected Widget, received Gadget)`,
      ],
      [
        (r) => respond(r, { convertedObjects: [widget('z', 'example.com/v2')] }),
        `${gvk} returned invalid object: must have the same name: a != z`,
      ],
      [
        (r) => respond(r, { convertedObjects: [{ apiVersion: 'example.com/v2', kind: 'Widget' }] }),
        `${gvk} returned invalid object: must have the same name: a != `,
      ],
      [
        (r) =>
          respond(r, {
            convertedObjects: [
              { ...widget('a', 'example.com/v2'), metadata: { name: 'a', namespace: 'ns', uid: 'uid-a', labels: { a: 2 } } },
            ],
          }),
        `${gvk} returned invalid metadata: metadata.labels[a] must be a string, but is int64 in converted object`,
      ],
      [
        (r) =>
          respond(r, {
            convertedObjects: [
              { ...widget('a', 'example.com/v2'), metadata: { name: 'a', namespace: 'ns', uid: 'uid-a', labels: { 'bad key!': 'x' } } },
            ],
          }),
        `${gvk} returned invalid metadata: metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      ],
    ];
    for (const [answer, expected] of cases) {
      const t = transport(answer);
      const message = await failure(new WebhookConverter(CRD, t).convert([widget('a')], 'example.com/v2'));
      assert.equal(message, expected.replace('UID', t.sent[0]?.request.uid ?? ''));
    }
  });

  it('names the list kind and the item index in a list’s failures', async () => {
    const t = transport((r) => respond(r, { convertedObjects: [widget('a', 'example.com/v2'), widget('x', 'example.com/v2')] }));
    const message = await failure(new WebhookConverter(CRD, t).convert([widget('a'), widget('b')], 'example.com/v2', 'WidgetList'));
    assert.equal(
      message,
      'conversion webhook for example.com/v1, Kind=WidgetList returned invalid converted object at index 2: must have the same name: b != x',
    );
  });

  it('refuses versions the CRD does not define, and review versions it does not speak (R11.99, R11.91)', async () => {
    assert.equal(
      await failure(new WebhookConverter(CRD, transport()).convert([widget('a')], 'example.com/v7')),
      'request to convert CR to an invalid group/version: example.com/v7',
    );
    assert.equal(
      await failure(new WebhookConverter(CRD, transport()).convert([widget('a', 'example.com/v0')], 'example.com/v2')),
      'request to convert CR from an invalid group/version: example.com/v0',
    );
    const unknown = structuredClone(CRD);
    (unknown.spec.conversion as any).webhook.conversionReviewVersions = ['v9'];
    assert.equal(
      await failure(new WebhookConverter(unknown, transport()).convert([widget('a')], 'example.com/v2')),
      'conversion webhook for example.com/v1, Kind=Widget failed: no supported conversion review versions',
    );
  });

  it('reports the transport’s error after the gvk, without the admission wording', async () => {
    const t: ConversionTransport = {
      post: async () => {
        throw new Error('failed to call webhook: Post "https://conv.test/convert?timeout=30s": context deadline exceeded');
      },
    };
    assert.equal(
      await failure(new WebhookConverter(CRD, t).convert([widget('a')], 'example.com/v2')),
      'conversion webhook for example.com/v1, Kind=Widget failed: Post "https://conv.test/convert?timeout=30s": context deadline exceeded',
    );
  });
});
