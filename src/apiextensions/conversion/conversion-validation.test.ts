import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CrdSpec } from '../../api/crd-types.js';
import { fieldErrorBody } from '../../api/errors.js';
import { validateConversion } from './conversion-validation.js';

// validateCustomResourceConversion's causes (R11.86, R11.87), on the internal field names (quirk Q10).

const spec = (conversion: unknown, extra: Partial<CrdSpec> = {}): CrdSpec => ({ conversion, ...extra }) as CrdSpec;
const causes = (s: CrdSpec, old?: CrdSpec): string[] => validateConversion(s, old).map((e) => `${e.field}: ${fieldErrorBody(e)}`);
const HOOK = { clientConfig: { url: 'https://conv.test/convert' }, conversionReviewVersions: ['v1'] };

describe('validateConversion', () => {
  it('accepts None, and Webhook with a client config and a known review version', () => {
    assert.deepEqual(causes(spec({ strategy: 'None' })), []);
    assert.deepEqual(causes(spec({ strategy: 'Webhook', webhook: HOOK })), []);
  });

  it('refuses an unknown strategy, and webhook settings under None', () => {
    assert.deepEqual(causes(spec({ strategy: 'Magic' })), [
      'spec.conversion.strategy: Unsupported value: "Magic": supported values: "None", "Webhook"',
    ]);
    assert.deepEqual(causes(spec({ strategy: 'None', webhook: HOOK })), [
      'spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook',
      'spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook',
    ]);
  });

  it('requires Webhook’s client config and review versions, checked as admission webhooks’ are', () => {
    assert.deepEqual(causes(spec({ strategy: 'Webhook' })), [
      'spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook',
      'spec.conversion.conversionReviewVersions: Required value',
    ]);
    assert.deepEqual(
      causes(spec({ strategy: 'Webhook', webhook: { clientConfig: { url: 'http://conv.test' }, conversionReviewVersions: ['v2', 'v2'] } })),
      [
        'spec.conversion.webhookClientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
        'spec.conversion.conversionReviewVersions[1]: Invalid value: "v2": duplicate version',
        'spec.conversion.conversionReviewVersions: Invalid value: []string{"v2", "v2"}: must include at least one of v1, v1beta1',
      ],
    );
    assert.deepEqual(causes(spec({ strategy: 'Webhook', webhook: { clientConfig: {}, conversionReviewVersions: ['v1'] } })), [
      'spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required',
    ]);
  });

  it('keeps a stored list without a known review version on update (ratcheting)', () => {
    const unknown = spec({ strategy: 'Webhook', webhook: { ...HOOK, conversionReviewVersions: ['v2'] } });
    assert.deepEqual(causes(unknown, unknown), []);
    assert.equal(causes(unknown, spec({ strategy: 'None' })).length, 1);
  });

  it('refuses Webhook with preserveUnknownFields (R11.87)', () => {
    assert.deepEqual(causes(spec({ strategy: 'Webhook', webhook: HOOK }, { preserveUnknownFields: true })), [
      'spec.conversion.strategy: Invalid value: "Webhook": must be None if spec.preserveUnknownFields is true',
    ]);
  });
});
