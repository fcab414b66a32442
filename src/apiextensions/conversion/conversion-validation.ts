import { type FieldError, fieldError } from '../../api/errors.js';
import { isObject } from '../../api/types.js';
import type { CrdSpec } from '../../api/crd-types.js';
import { validateClientConfig } from '../../kinds/admissionregistration-v1/webhook-client-config-validation.js';
import { ACCEPTED_REVIEW_VERSIONS, validateReviewVersions } from '../../kinds/admissionregistration-v1/webhook-validation.js';

/**
 * validateCustomResourceConversion (apiextensions validation.go; R11.86, R11.87). Kubernetes validates the internal
 * form, so causes name `spec.conversion.webhookClientConfig` and `spec.conversion.conversionReviewVersions`
 * although v1 objects spell them under `spec.conversion.webhook` (quirk Q10).
 */

const PATH = 'spec.conversion';
const STRATEGIES = ['None', 'Webhook'];
const NOT_WEBHOOK = 'should not be set when strategy is not set to Webhook';

/** Whether a review version list may be kept on update: empty, or naming a version this server speaks. */
function hasRecognizedVersionOrEmpty(versions: readonly unknown[] | undefined): boolean {
  return versions === undefined || versions.length === 0 || versions.some((v) => ACCEPTED_REVIEW_VERSIONS.includes(String(v)));
}

/** `old` is the spec an update replaces: a stored list without a known version is not refused again. */
export function validateConversion(spec: CrdSpec, old?: CrdSpec): FieldError[] {
  const conversion = spec.conversion;
  if (!isObject(conversion)) return [];
  const errs: FieldError[] = [];
  const strategy = typeof conversion.strategy === 'string' ? conversion.strategy : '';
  if (strategy === '') errs.push(fieldError.required(`${PATH}.strategy`));
  else if (!STRATEGIES.includes(strategy)) errs.push(fieldError.notSupported(`${PATH}.strategy`, strategy, STRATEGIES));
  const webhook = isObject(conversion.webhook) ? conversion.webhook : {};
  const clientConfig = webhook.clientConfig;
  const reviewVersions = Array.isArray(webhook.conversionReviewVersions) ? webhook.conversionReviewVersions : [];
  if (strategy === 'Webhook') {
    if (clientConfig === undefined || clientConfig === null)
      errs.push(fieldError.required(`${PATH}.webhookClientConfig`, 'required when strategy is set to Webhook'));
    else errs.push(...validateClientConfig(`${PATH}.webhookClientConfig`, clientConfig));
    if (reviewVersions.length === 0) errs.push(fieldError.required(`${PATH}.conversionReviewVersions`, ''));
    else {
      const requireRecognized = old === undefined || hasRecognizedVersionOrEmpty(old.conversion?.webhook?.conversionReviewVersions);
      errs.push(...validateReviewVersions(`${PATH}.conversionReviewVersions`, reviewVersions, requireRecognized));
    }
    if (spec.preserveUnknownFields === true)
      errs.push(fieldError.invalid(`${PATH}.strategy`, strategy, 'must be None if spec.preserveUnknownFields is true'));
  } else {
    if (clientConfig !== undefined && clientConfig !== null) errs.push(fieldError.forbidden(`${PATH}.webhookClientConfig`, NOT_WEBHOOK));
    if (reviewVersions.length > 0) errs.push(fieldError.forbidden(`${PATH}.conversionReviewVersions`, NOT_WEBHOOK));
  }
  return errs;
}
