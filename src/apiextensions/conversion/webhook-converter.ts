import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../api/types.js';
import type { CustomResourceDefinition } from '../../api/crd-types.js';
import { ConversionFailure, type ObjectConverter } from '../../registry/object-converter.js';
import { acceptConverted, ConvertedObjectError, conversionReview, convertedObjectsOf, describeGvk } from './conversion-review.js';

/**
 * `spec.conversion.strategy: Webhook` (R11.88–R11.99): one ConversionReview per object, or per list page, POSTed to
 * the CRD's webhook with the admission webhooks' HTTPS client; no failure policy, bounded by a timeout (30 s in
 * Kubernetes). The HTTP client is injected: apiextensions sits below the admission layer that owns it.
 */

/** What the converter needs of the HTTPS client: one POST answered or failed by `deadline` (epoch ms). */
export interface ConversionTransport {
  post(clientConfig: Record<string, unknown>, review: unknown, deadline: number): Promise<unknown>;
}

/** Kubernetes' fixed conversion timeout (R11.91). */
export const CONVERSION_TIMEOUT_MS = 30_000;

/** The admission client words its failures for admission; a conversion reports the transport error alone. */
const ADMISSION_PREFIX = 'failed to call webhook: ';

export class WebhookConverter implements ObjectConverter {
  readonly storageApiVersion: string;
  private readonly clientConfig: Record<string, unknown>;
  private readonly reviewVersions: readonly string[];
  private readonly versions: ReadonlySet<string>;
  private readonly transport: ConversionTransport;
  private readonly timeoutMs: number;

  constructor(crd: CustomResourceDefinition, transport: ConversionTransport, timeoutMs: number = CONVERSION_TIMEOUT_MS) {
    this.transport = transport;
    this.timeoutMs = timeoutMs;
    const spec = crd.spec;
    const storage = spec.versions.find((v) => v.storage)?.name ?? spec.versions[0]?.name ?? '';
    this.storageApiVersion = `${spec.group}/${storage}`;
    this.clientConfig = { ...(spec.conversion?.webhook?.clientConfig ?? {}) };
    this.reviewVersions = spec.conversion?.webhook?.conversionReviewVersions ?? [];
    this.versions = new Set(spec.versions.map((v) => `${spec.group}/${v.name}`));
  }

  async convert(objects: readonly KubeObject[], to: string, listKind?: string): Promise<KubeObject[]> {
    const pending = objects.filter((o) => o.apiVersion !== to);
    if (pending.length === 0) return [...objects];
    const first = pending[0] as KubeObject;
    // A list reports its own kind (at the version its items were read at); a single object its own.
    const gvk = listKind === undefined ? describeGvk(first.apiVersion, first.kind) : describeGvk(this.storageApiVersion, listKind);
    this.checkVersions(pending, to);
    const sent = await this.call(gvk, to, pending);
    if (sent.length !== pending.length)
      throw new ConversionFailure(`conversion webhook for ${gvk} returned ${sent.length} objects, expected ${pending.length}`);
    let next = 0;
    return objects.map((original) => {
      if (original.apiVersion === to) return original;
      const index = next++;
      try {
        return acceptConverted(original, sent[index], to);
      } catch (err) {
        if (!(err instanceof ConvertedObjectError)) throw err;
        throw new ConversionFailure(`conversion webhook for ${gvk} ${invalidObjectText(err, listKind === undefined, index)}`);
      }
    });
  }

  /** R11.99: only versions the CRD defines are converted from or to. */
  private checkVersions(objects: readonly KubeObject[], to: string): void {
    if (!this.versions.has(to)) throw new ConversionFailure(`request to convert CR to an invalid group/version: ${to}`);
    for (const obj of objects) {
      if (!this.versions.has(obj.apiVersion ?? ''))
        throw new ConversionFailure(`request to convert CR from an invalid group/version: ${obj.apiVersion ?? ''}`);
    }
  }

  private async call(gvk: string, to: string, objects: readonly KubeObject[]): Promise<unknown[]> {
    try {
      const review = conversionReview(this.reviewVersions, randomUUID(), to, objects);
      const answer = await this.transport.post(this.clientConfig, review, Date.now() + this.timeoutMs);
      return convertedObjectsOf(review, answer);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const detail = message.startsWith(ADMISSION_PREFIX) ? message.slice(ADMISSION_PREFIX.length) : message;
      throw new ConversionFailure(`conversion webhook for ${gvk} failed: ${detail}`);
    }
  }
}

/**
 * webhook_converter.go's sentences for a bad converted object. For a list item the index it prints is the
 * item's position plus one, except when the item cannot be decoded at all (Kubernetes counts after decoding).
 */
function invalidObjectText(err: ConvertedObjectError, single: boolean, index: number): string {
  if (single) {
    if (err.part === 'metadata') return `returned invalid metadata: ${err.message}`;
    if (err.part === 'version') return `returned invalid object at index 0: ${err.message}`;
    return `returned invalid object: ${err.message}`;
  }
  if (err.part === 'decode') return `returned invalid converted object at index ${index}: ${err.message}`;
  if (err.part === 'metadata') return `returned invalid metadata in object at index ${index + 1}: ${err.message}`;
  return `returned invalid converted object at index ${index + 1}: ${err.message}`;
}
