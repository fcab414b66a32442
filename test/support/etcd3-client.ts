import type { Etcd3 } from 'etcd3';

/**
 * The etcd3 library's client (a development dependency). The backend does not use it (see GrpcChannel); it is the
 * independent reference the etcd benchmark's raw-put baseline and the tests' cross-checks go through. Loaded on
 * demand, with gRPC.
 */
export async function connectEtcd(endpoints: readonly string[], tls?: { ca: Buffer; cert: Buffer; key: Buffer }): Promise<Etcd3> {
  const { Etcd3: Client } = await import('etcd3');
  return new Client({
    hosts: [...endpoints],
    credentials: tls === undefined ? undefined : { rootCertificate: tls.ca, certChain: tls.cert, privateKey: tls.key },
    // gRPC's 4 MiB default would fail large lists, which etcd itself serves up to 2 GiB.
    grpcOptions: { 'grpc.max_receive_message_length': -1 },
  });
}
