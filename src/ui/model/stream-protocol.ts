import type { KubeObject } from '../../api/types.js';

/** A resource the stream carries; `key` is "plural" for the core group, else "plural.group". */
export interface StreamResource {
  readonly key: string;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

export interface StreamEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly resource: string;
  readonly object: KubeObject;
}

/** One server-sent `data:` message. */
export interface StreamBatch {
  readonly events: readonly StreamEvent[];
}

/** A resource the page's credentials may not list or watch, with the server's 403 message. */
export interface ForbiddenResource {
  readonly resource: StreamResource;
  readonly message: string;
}
