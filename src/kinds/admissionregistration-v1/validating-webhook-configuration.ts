import type { KindDefinition } from '../define/kind-definition.js';
import { webhookConfigurationKind } from './webhook-configuration-kind.js';

/** admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration. */
export const VALIDATING_WEBHOOK_CONFIGURATION: KindDefinition = webhookConfigurationKind('validating');
