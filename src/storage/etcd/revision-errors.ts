/**
 * etcd reports reads and compactions outside the kept history only through the gRPC status message
 * (OUT_OF_RANGE with "etcdserver: mvcc: ..."); the client library turns them into generic errors.
 */
export function isCompactedRevision(error: unknown): boolean {
  return error instanceof Error && error.message.includes('required revision has been compacted');
}

export function isFutureRevision(error: unknown): boolean {
  return error instanceof Error && error.message.includes('required revision is a future revision');
}
