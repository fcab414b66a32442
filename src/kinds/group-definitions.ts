import type { Definitions } from '../openapi/schema.js';
import { APIEXTENSIONS_V1_DEFINITIONS } from './apiextensions-v1/definitions.js';
import { APIREGISTRATION_V1_DEFINITIONS } from './apiregistration-v1/definitions.js';
import { APPS_V1_DEFINITIONS } from './apps-v1/definitions.js';
import { AUTHENTICATION_V1_DEFINITIONS } from './authentication-v1/definitions.js';
import { AUTHORIZATION_V1_DEFINITIONS } from './authorization-v1/definitions.js';
import { AUTOSCALING_V1_DEFINITIONS } from './autoscaling-v1/definitions.js';
import { BATCH_V1_DEFINITIONS } from './batch-v1/definitions.js';
import { COORDINATION_V1_DEFINITIONS } from './coordination-v1/definitions.js';
import { DISCOVERY_V1_DEFINITIONS } from './discovery-v1/definitions.js';
import { EVENTS_V1_DEFINITIONS } from './events-v1/definitions.js';
import { RBAC_V1_DEFINITIONS } from './rbac-v1/definitions.js';

/** Definitions of every served built-in kind outside the core group, keyed by their Kubernetes names. */
export const GROUP_DEFINITIONS: Definitions = {
  ...APPS_V1_DEFINITIONS,
  ...BATCH_V1_DEFINITIONS,
  ...RBAC_V1_DEFINITIONS,
  ...COORDINATION_V1_DEFINITIONS,
  ...DISCOVERY_V1_DEFINITIONS,
  ...EVENTS_V1_DEFINITIONS,
  ...APIEXTENSIONS_V1_DEFINITIONS,
  ...APIREGISTRATION_V1_DEFINITIONS,
  ...AUTOSCALING_V1_DEFINITIONS,
  ...AUTHENTICATION_V1_DEFINITIONS,
  ...AUTHORIZATION_V1_DEFINITIONS,
};
