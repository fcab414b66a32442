import { APIEXTENSIONS_V1_FIELD_NUMBERS } from './apiextensions-v1/field-numbers.js';
import { APIREGISTRATION_V1_FIELD_NUMBERS } from './apiregistration-v1/field-numbers.js';
import { APPS_V1_FIELD_NUMBERS } from './apps-v1/field-numbers.js';
import { AUTHENTICATION_V1_FIELD_NUMBERS } from './authentication-v1/field-numbers.js';
import { AUTHORIZATION_V1_FIELD_NUMBERS } from './authorization-v1/field-numbers.js';
import { AUTOSCALING_V1_FIELD_NUMBERS } from './autoscaling-v1/field-numbers.js';
import { BATCH_V1_FIELD_NUMBERS } from './batch-v1/field-numbers.js';
import { COORDINATION_V1_FIELD_NUMBERS } from './coordination-v1/field-numbers.js';
import { CORE_V1_FIELD_NUMBERS } from './core-v1/types/core-field-numbers.js';
import { CORE_V1_LEGACY_VOLUME_FIELD_NUMBERS } from './core-v1/types/legacy-volumes-field-numbers.js';
import { CORE_V1_POD_FIELD_NUMBERS } from './core-v1/types/pod-field-numbers.js';
import { DISCOVERY_V1_FIELD_NUMBERS } from './discovery-v1/field-numbers.js';
import { EVENTS_V1_FIELD_NUMBERS } from './events-v1/field-numbers.js';
import { META_FIELD_NUMBERS } from './meta/field-numbers.js';
import { RBAC_V1_FIELD_NUMBERS } from './rbac-v1/field-numbers.js';
import type { FieldNumberTable } from './define/field-numbers.js';

/** Field numbers of every protobuf message reachable from the served built-in kinds. */
export const FIELD_NUMBERS: FieldNumberTable = {
  ...META_FIELD_NUMBERS,
  ...CORE_V1_FIELD_NUMBERS,
  ...CORE_V1_POD_FIELD_NUMBERS,
  ...CORE_V1_LEGACY_VOLUME_FIELD_NUMBERS,
  ...APPS_V1_FIELD_NUMBERS,
  ...BATCH_V1_FIELD_NUMBERS,
  ...RBAC_V1_FIELD_NUMBERS,
  ...COORDINATION_V1_FIELD_NUMBERS,
  ...DISCOVERY_V1_FIELD_NUMBERS,
  ...EVENTS_V1_FIELD_NUMBERS,
  ...AUTOSCALING_V1_FIELD_NUMBERS,
  ...APIEXTENSIONS_V1_FIELD_NUMBERS,
  ...APIREGISTRATION_V1_FIELD_NUMBERS,
  ...AUTHENTICATION_V1_FIELD_NUMBERS,
  ...AUTHORIZATION_V1_FIELD_NUMBERS,
};
