import type { Etcd3 } from 'etcd3';

/**
 * Loads the etcd client (and with it gRPC) only when an etcd backend is created, so that servers on other
 * backends never pay for it.
 */
export async function connectEtcd(endpoints: readonly string[]): Promise<Etcd3> {
  const { Etcd3: Client } = await import('etcd3');
  return new Client({
    hosts: [...endpoints],
    // gRPC's 4 MiB default would fail large lists, which etcd itself serves up to 2 GiB.
    grpcOptions: { 'grpc.max_receive_message_length': -1 },
  });
}
