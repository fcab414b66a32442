import { ATOMIC_STRUCT, CORE, object, str } from '../../../openapi/builders/shorthand.js';
import type { Definitions } from '../../../openapi/schema.js';

/** core/v1 reference types several kinds point at (objects, secrets, event sources). */

export const CORE_V1_REFERENCE_DEFINITIONS: Definitions = {
  [`${CORE}EventSource`]: object('Source of an event.', {
    component: str('Component from which the event is generated.'),
    host: str('Node name on which the event is generated.'),
  }),
  [`${CORE}ObjectReference`]: object(
    'Enough information to inspect or modify the referred object.',
    {
      apiVersion: str('API version of the referent.'),
      fieldPath: str('Path to a piece of the object rather than the whole, e.g. "spec.containers{name}" for a container of a pod.'),
      kind: str('Kind of the referent.'),
      name: str('Name of the referent.'),
      namespace: str('Namespace of the referent.'),
      resourceVersion: str('Specific resourceVersion this reference was made to, if any.'),
      uid: str('UID of the referent.'),
    },
    ATOMIC_STRUCT,
  ),
  [`${CORE}LocalObjectReference`]: object(
    'Reference to an object in the same namespace.',
    { name: str('Name of the referent; empty is allowed but almost certainly wrong.') },
    ATOMIC_STRUCT,
  ),
  [`${CORE}TypedLocalObjectReference`]: object(
    'Reference to a typed object in the same namespace.',
    {
      apiGroup: str('Group of the referenced resource; required unless the kind is in the core group.'),
      kind: str('Kind of the referenced resource.'),
      name: str('Name of the referenced resource.'),
    },
    { required: ['kind', 'name'], ...ATOMIC_STRUCT },
  ),
  [`${CORE}TypedObjectReference`]: object(
    'Reference to a typed object, possibly in another namespace.',
    {
      apiGroup: str('Group of the referenced resource; required unless the kind is in the core group.'),
      kind: str('Kind of the referenced resource.'),
      name: str('Name of the referenced resource.'),
      namespace: str('Namespace of the referenced resource, when it differs from the referrer’s.'),
    },
    { required: ['kind', 'name'] },
  ),
};
