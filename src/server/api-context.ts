import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Aggregator } from '../aggregator/index.js';
import type { Authorizer } from '../auth/authorizer.js';
import type { UserInfo } from '../api/user.js';
import type { StatusError } from '../api/errors.js';
import type { ResourceInfo } from '../api/resource-info.js';
import type { KubeObject } from '../api/types.js';
import type { TokenAuthentication } from '../auth/serviceaccount/token-authenticator.js';
import type { TokenIssuer } from '../auth/serviceaccount/token-issuer.js';
import type { Definitions } from '../openapi/schema.js';
import type { Registry } from '../registry/registry.js';
import type { ResourceStore } from '../registry/store.js';
import type { ComponentProbe } from './component-probes.js';
import type { ResponseFormat } from './negotiation.js';
import type { Query } from './query.js';

/** Server-wide dependencies every handler reads. */
export interface ApiContext {
  readonly registry: Registry;
  readonly definitions: Definitions;
  readonly clock: () => Date;
  /** Interval between BOOKMARK events on watches that allow them. */
  readonly bookmarkIntervalMs: number;
  /** Upper bound for a watch without timeoutSeconds (kube-apiserver: --min-request-timeout, randomised ×1–2). */
  readonly minRequestTimeoutSeconds: number;
  /** Signals long-running requests (watches) to end when the server shuts down. */
  readonly shutdown: AbortSignal;
  /** Decides every request after authentication (system:masters, then RBAC). */
  readonly authorizer: Authorizer;
  /** Judges a bearer token for TokenReview against the audiences asked about; undefined when no authenticator knows it. */
  readonly authenticateToken: (token: string, audiences: readonly string[]) => Promise<TokenAuthentication | undefined>;
  /** Issues service account tokens (TokenRequest). */
  readonly serviceAccountTokens: TokenIssuer;
  /** Serves APIServices backed by other servers (absent without front-proxy credentials). */
  readonly aggregator: Aggregator | undefined;
  /**
   * Per-object read authorization beyond the resource's own (the archive's: an entry is readable by who may get the
   * original). For a request by `user`: each object's refusal, or undefined when every object is readable.
   */
  readonly objectReadCheck?: (info: ResourceInfo, user: UserInfo) => ((obj: KubeObject) => StatusError | undefined) | undefined;
  /** The components componentstatuses reports on (none: an empty list). */
  readonly componentProbes?: readonly ComponentProbe[];
}

/** One API request on a resource, after routing. */
export interface ResourceRequest {
  readonly ctx: ApiContext;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly store: ResourceStore;
  readonly namespace: string | undefined;
  readonly name: string | undefined;
  readonly subresource: string | undefined;
  readonly query: Query;
  readonly format: ResponseFormat;
  /** Who the request acts as, after authentication and impersonation. */
  readonly user: UserInfo;
}
