/**
 * Column descriptions: the Go printers take them from the API types' swagger docs (`SwaggerDoc()[field]`).
 * They are informational only (kubectl never shows them); several upstream ones come from older API versions
 * whose wording differs slightly from the v1 docs used here. Those of every kind's Name and Age columns are here;
 * a kind's own sit beside its printer in src/kinds/.
 */

export const objectMetaCreationTimestamp =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';
export const objectMetaName =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
