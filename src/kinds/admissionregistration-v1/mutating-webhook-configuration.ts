import type { KindDefinition } from '../define/kind-definition.js';
import { webhookConfigurationKind } from './webhook-configuration-kind.js';

/** admissionregistration.k8s.io/v1 MutatingWebhookConfiguration. */
export const MUTATING_WEBHOOK_CONFIGURATION: KindDefinition = webhookConfigurationKind('mutating');
