/**
 * Protobuf field numbers of one Go API type, keyed by JSON field name. The numbers are those of the
 * `generated.proto` files of Kubernetes v1.32 (k8s.io/api, k8s.io/apimachinery, apiextensions-apiserver and
 * kube-aggregator); OpenAPI carries no tags, so they are kept here beside the schema-driven codec.
 */
export interface MessageFields {
  readonly tags: Readonly<Record<string, number>>;
  /**
   * Scalar fields that are Go pointers. Go's `omitempty` drops a non-pointer zero value ("" / 0 / false) but keeps
   * a pointer to one, while gogo protobuf writes non-pointer scalars even when zero; the decoder needs to know which
   * is which to give the JSON a Go client would have sent.
   */
  readonly pointers?: readonly string[];
  /**
   * Embedded Go structs (`json:",inline"`), by tag: the named message's fields are decoded into the enclosing JSON
   * object and typed by the enclosing definition's schema (e.g. Probe's ProbeHandler, Volume's VolumeSource).
   */
  readonly inline?: Readonly<Record<number, string>>;
}

/** OpenAPI definition name (or, for inline-only messages, the name the definition would have) → its fields. */
export type FieldNumberTable = Readonly<Record<string, MessageFields>>;
