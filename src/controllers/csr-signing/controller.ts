import { StatusError } from '../../api/errors.js';
import { isObject, type KubeObject, objects } from '../../api/types.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { firstPemBlock, parseCertificateRequest } from '../../pki/certificate-request.js';
import type { CertificateAndKey } from '../../pki/issue.js';
import { signRequest } from '../../pki/sign-request.js';
import { createRateLimitedQueue, type RateLimitedQueue } from '../../workqueue/rate-limited-queue.js';
import { SIGNERS, signerRefusal } from './signer-policy.js';

const CSRS: ResourceRef = { group: 'certificates.k8s.io', version: 'v1', resource: 'certificatesigningrequests' };

/** kube-controller-manager's --cluster-signing-duration default: a year; a request may ask for less, not more. */
const MAX_TTL_MS = 365 * 24 * 3600_000;
/** Go's signer never issues for less than ten minutes. */
const MIN_TTL_MS = 10 * 60_000;

const nowSeconds = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The csrsigning controller for the kube-apiserver-client, kube-apiserver-client-kubelet and kubelet-serving
 * signers: an approved request for one of them, not denied or failed and not yet issued, gets a certificate from
 * the cluster CA in status.certificate, or a Failed condition when the signer's rules refuse it.
 */
export class CsrSigningController {
  private readonly client: ApiClient;
  private readonly ca: CertificateAndKey;
  private readonly log: (message: string) => void;
  private readonly csrs: SharedInformer;
  private readonly queue: RateLimitedQueue<string> = createRateLimitedQueue<string>();
  private worker: Promise<void> | undefined;

  constructor(client: ApiClient, ca: CertificateAndKey, log: (message: string) => void = () => {}) {
    this.client = client;
    this.ca = ca;
    this.log = log;
    this.csrs = createSharedInformer(client, CSRS, undefined);
    const enqueue = (csr: KubeObject): void => this.queue.add(csr.metadata.name ?? '');
    this.csrs.addEventHandler({ onAdd: enqueue, onUpdate: (_old, csr) => enqueue(csr) });
  }

  async start(): Promise<void> {
    this.csrs.start();
    await this.csrs.whenSynced();
    this.worker = this.run();
  }

  async stop(): Promise<void> {
    await this.csrs.stop();
    this.queue.shutDown();
    await this.worker;
  }

  private async run(): Promise<void> {
    for (;;) {
      const name = await this.queue.get();
      if (name === undefined) return;
      try {
        await this.sync(name);
        this.queue.forget(name);
      } catch (err) {
        this.log(`csrsigning: ${name}: ${err instanceof Error ? err.message : String(err)}`);
        this.queue.addRateLimited(name);
      } finally {
        this.queue.done(name);
      }
    }
  }

  private async sync(name: string): Promise<void> {
    const csr = this.csrs.store.get(undefined, name);
    if (csr === undefined) return;
    const spec = isObject(csr.spec) ? csr.spec : {};
    const status = isObject(csr.status) ? csr.status : {};
    const types = new Set(objects(status.conditions).map((c) => c.type));
    const signerName = typeof spec.signerName === 'string' ? spec.signerName : '';
    const issued = typeof status.certificate === 'string' && status.certificate !== '';
    if (!types.has('Approved') || types.has('Denied') || types.has('Failed') || issued || !SIGNERS.includes(signerName)) return;
    const block = firstPemBlock(Buffer.from(typeof spec.request === 'string' ? spec.request : '', 'base64').toString('latin1'));
    if (block === undefined) return;
    const request = parseCertificateRequest(block.der);
    const usages = Array.isArray(spec.usages) ? spec.usages.filter((u): u is string => typeof u === 'string') : [];
    const refusal = signerRefusal(signerName, request, usages);
    const next = structuredClone(csr);
    const nextStatus: Record<string, unknown> = isObject(next.status) ? next.status : {};
    if (refusal !== undefined) {
      const failed = { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: refusal, lastUpdateTime: nowSeconds() };
      nextStatus.conditions = [...objects(nextStatus.conditions), failed];
    } else {
      const requested = typeof spec.expirationSeconds === 'number' ? spec.expirationSeconds * 1000 : MAX_TTL_MS;
      const ttl = Math.max(MIN_TTL_MS, Math.min(requested, MAX_TTL_MS));
      nextStatus.certificate = Buffer.from(signRequest(this.ca, request, usages, ttl)).toString('base64');
    }
    next.status = nextStatus;
    try {
      await this.client.update(CSRS, undefined, next, 'status');
    } catch (err) {
      // A newer version is on its way through the informer, or the request is gone.
      if (err instanceof StatusError && [404, 409].includes(err.code)) return;
      throw err;
    }
  }
}
