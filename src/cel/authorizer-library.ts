import type { Environment } from '@marcbachmann/cel-js';

/**
 * Kubernetes' CEL authorizer library (R11.137), over any synchronous authorizer: `authorizer.group(g).resource(r)
 * .subresource(s).namespace(ns).name(n).check(verb)`, `authorizer.path(p).check(verb)`,
 * `authorizer.serviceAccount(ns, name)`, `authorizer.requestResource` (pre-filled with the request's resource), and
 * the decision's `allowed()`, `reason()`, `errored()`, `error()`. The selector methods are not offered.
 */

export interface CelResourceCheck {
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
}

/** What the library asks: may the principal (opaque here) do `verb` on this resource, or on this path? */
export interface CelAuthorizerBackend {
  resource(principal: unknown, check: CelResourceCheck, verb: string): { readonly allowed: boolean; readonly reason: string };
  path(principal: unknown, path: string, verb: string): { readonly allowed: boolean; readonly reason: string };
  /** The principal of a service account, for `authorizer.serviceAccount(namespace, name)`. */
  serviceAccount(namespace: string, name: string): unknown;
}

export class DecisionValue {
  readonly allowed: boolean;
  readonly reason: string;
  constructor(allowed: boolean, reason: string) {
    this.allowed = allowed;
    this.reason = reason;
  }
}

export class ResourceCheckValue {
  readonly backend: CelAuthorizerBackend;
  readonly principal: unknown;
  readonly check: CelResourceCheck;
  constructor(backend: CelAuthorizerBackend, principal: unknown, check: CelResourceCheck) {
    this.backend = backend;
    this.principal = principal;
    this.check = check;
  }
  with(change: Partial<CelResourceCheck>): ResourceCheckValue {
    return new ResourceCheckValue(this.backend, this.principal, { ...this.check, ...change });
  }
}

export class GroupCheckValue {
  readonly backend: CelAuthorizerBackend;
  readonly principal: unknown;
  readonly group: string;
  constructor(backend: CelAuthorizerBackend, principal: unknown, group: string) {
    this.backend = backend;
    this.principal = principal;
    this.group = group;
  }
}

export class PathCheckValue {
  readonly backend: CelAuthorizerBackend;
  readonly principal: unknown;
  readonly path: string;
  constructor(backend: CelAuthorizerBackend, principal: unknown, path: string) {
    this.backend = backend;
    this.principal = principal;
    this.path = path;
  }
}

/** The `authorizer` value of one request: the requester (a principal the backend knows) and the request's resource. */
export class AuthorizerValue {
  readonly backend: CelAuthorizerBackend;
  readonly principal: unknown;
  readonly requestResource: ResourceCheckValue;
  constructor(backend: CelAuthorizerBackend, principal: unknown, requestResource: CelResourceCheck) {
    this.backend = backend;
    this.principal = principal;
    this.requestResource = new ResourceCheckValue(backend, principal, requestResource);
  }
}

const EMPTY_CHECK: CelResourceCheck = { group: '', resource: '', subresource: '', namespace: '', name: '' };

/** Declares the library's types and functions in `env` (before it is cloned). */
export function registerAuthorizerLibrary(env: Environment): void {
  env.registerType('Decision', { ctor: DecisionValue, fields: {} });
  env.registerType('ResourceCheck', { ctor: ResourceCheckValue, fields: {} });
  env.registerType('GroupCheck', { ctor: GroupCheckValue, fields: {} });
  env.registerType('PathCheck', { ctor: PathCheckValue, fields: {} });
  env.registerType('Authorizer', { ctor: AuthorizerValue, fields: { requestResource: 'ResourceCheck' } });
  env.registerFunction(
    'Authorizer.group(string): GroupCheck',
    (a: AuthorizerValue, g: string) => new GroupCheckValue(a.backend, a.principal, g),
  );
  env.registerFunction(
    'Authorizer.path(string): PathCheck',
    (a: AuthorizerValue, p: string) => new PathCheckValue(a.backend, a.principal, p),
  );
  env.registerFunction(
    'Authorizer.serviceAccount(string, string): Authorizer',
    (a: AuthorizerValue, ns: string, name: string) => new AuthorizerValue(a.backend, a.backend.serviceAccount(ns, name), EMPTY_CHECK),
  );
  env.registerFunction(
    'GroupCheck.resource(string): ResourceCheck',
    (g: GroupCheckValue, r: string) => new ResourceCheckValue(g.backend, g.principal, { ...EMPTY_CHECK, group: g.group, resource: r }),
  );
  env.registerFunction('ResourceCheck.subresource(string): ResourceCheck', (c: ResourceCheckValue, s: string) =>
    c.with({ subresource: s }),
  );
  env.registerFunction('ResourceCheck.namespace(string): ResourceCheck', (c: ResourceCheckValue, s: string) => c.with({ namespace: s }));
  env.registerFunction('ResourceCheck.name(string): ResourceCheck', (c: ResourceCheckValue, s: string) => c.with({ name: s }));
  env.registerFunction('ResourceCheck.check(string): Decision', (c: ResourceCheckValue, verb: string) => {
    const d = c.backend.resource(c.principal, c.check, verb);
    return new DecisionValue(d.allowed, d.reason);
  });
  env.registerFunction('PathCheck.check(string): Decision', (p: PathCheckValue, verb: string) => {
    const d = p.backend.path(p.principal, p.path, verb);
    return new DecisionValue(d.allowed, d.reason);
  });
  env.registerFunction('Decision.allowed(): bool', (d: DecisionValue) => d.allowed);
  env.registerFunction('Decision.reason(): string', (d: DecisionValue) => d.reason);
  env.registerFunction('Decision.errored(): bool', () => false);
  env.registerFunction('Decision.error(): string', () => '');
}
