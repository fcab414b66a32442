import { setAnnotation } from './grace-propagation.js';
import { randomUUID } from 'node:crypto';
import {
  GoLiteral,
  alreadyExists,
  conflict,
  forbidden,
  fieldError,
  badRequest,
  invalid,
  notFound,
  OPTIMISTIC_LOCK_ERROR_MSG,
  StatusError,
} from '../api/errors.js';
import { qualifiedKind, type ResourceInfo } from '../api/resource-info.js';
import { apiVersionOf, type KubeList, type KubeObject, type Status } from '../api/types.js';
import type { UserInfo } from '../api/user.js';
import type { Backend, KeyValue } from '../storage/backend.js';
import { KeyExistsError, KeyNotFoundError, RevisionConflictError } from '../storage/errors.js';
import { decodeObject, encodeObject, storesSame } from './codec.js';
import type { ComputedFields } from './computed-fields.js';
import { validateDeleteOptions } from './delete-policy.js';
import { checkDeletePreconditions, deletionGrace, deletionOutcome, UNCHANGED } from './deletion.js';
import type { DeleteOptions } from '../api/delete-options.js';
import type { DeletionCause } from '../api/deletion-cause.js';
import type { Archive } from './archive/archive.js';
import { objectKey } from './keys.js';
import { dropEmptyMetadata, generateName, restore, SERVER_OWNED_FIELDS, withTypeErrors } from './system-metadata.js';
import { nowSeconds } from './timestamps.js';
import { checkNotFuture, listObjects, type StoreListOptions } from './list.js';
import { compileSelection, type Selection } from './selection.js';
import type { Strategy } from './strategy.js';
import type { AdmissionChain } from './admission/chain.js';
import { admissionAttributes, type AdmissionAttributes } from './admission/attributes.js';
import type { WriteHooks } from './write-hooks.js';
import { validateObjectMetaCreate, validateObjectMetaUpdate } from './validation/object-meta.js';
import { parseResourceVersion } from './resource-version.js';
import { DEDUCED, type MergeType } from '../apply/schema.js';
import { admitKeepingManagedFields, endpointOf, trackUpdateOperation } from './field-tracking.js';
import type { VersionConversion } from '../kinds/define/kind-definition.js';
import { conversionStatus, type ObjectConverter } from './object-converter.js';

export interface WriteOptions {
  readonly dryRun?: boolean;
  /** "status" for writes through the /status subresource. */
  readonly subresource?: string;
  /** Collects the warnings the write produces (the HTTP layer returns them as Warning headers). */
  readonly warnings?: string[];
  /** Who asks for the write; admission plugins that check permissions need it (absent: the server itself). */
  readonly user?: UserInfo;
  /**
   * The caller serialises the returned object at once and keeps no reference to it (the HTTP API does), so the
   * first watch event reporting the write may take that very object instead of decoding the stored bytes again.
   */
  readonly resultDisposable?: boolean;
  /**
   * The manager an Update operation (create, update, non-apply patch) is recorded under in managedFields (R10.39);
   * writes naming none are not recorded.
   */
  readonly fieldManager?: string;
  /** The write is an apply that computed the object's managedFields itself (no Update operation is recorded). */
  readonly applied?: boolean;
}

/** Who asks for a deletion, for admission, and why when a controller deletes (the archive records it). */
export interface Requester {
  readonly user?: UserInfo;
  readonly cause?: DeletionCause;
  /** Collects the warnings admission adds (the HTTP layer returns them as Warning headers). */
  readonly warnings?: string[];
}

export interface DeleteResult {
  readonly code: 200 | 202;
  readonly body: KubeObject | Status;
  /** True when the object left storage (false: it remains, terminating). */
  readonly removed: boolean;
}

const GENERATE_NAME_ATTEMPTS = 8;
const UPDATE_RETRIES = 16;
/** Disposable write results waiting for their watch event, per resource (see ResourceStore.written). */
const WRITTEN_PENDING = 1024;
/**
 * The generic registry store for one resource (registry/store.go analogue): system metadata, strategies,
 * optimistic concurrency, the deletion state machine and selector-aware list/watch, over a storage Backend.
 */
export class ResourceStore {
  readonly info: ResourceInfo;
  readonly strategy: Strategy;
  readonly backend: Backend;
  readonly clock: () => Date;
  /** The server's admission chain, read at each write: it is installed once the registry exists (Registry.admitWith). */
  private readonly admission: () => AdmissionChain;
  /** This resource's storage steps around writes (Services' ClusterIP allocation). */
  private readonly hooks: WriteHooks;
  readonly ref: { group: string; resource: string };
  readonly apiVersion: string;
  /** Present when this version is stored as another: objects are converted at the store's edges. */
  private readonly conversion: VersionConversion | undefined;
  /** The apiVersion objects are stored with (this version's unless converted). */
  private readonly storageApiVersion: string;
  private readonly computedFields: ComputedFields | undefined;
  /** How server-side apply and managedFields see this kind (R10.65). */
  readonly mergeType: MergeType;
  /**
   * Objects this store is deleting, by the KeyValue its delete read: the first watch event reporting that
   * deletion takes the object instead of decoding the same bytes again (a cascade deletes thousands, and an
   * informer watches each go). Only backends that hand the read KeyValue back as the event's prevKv (memory) ever
   * match; for the others the entries go with their KeyValues.
   */
  private readonly deleting = new WeakMap<KeyValue, KubeObject>();
  /**
   * Objects just written for a caller that keeps no reference to them (WriteOptions.resultDisposable), by the
   * bytes stored: the first watch event carrying those bytes takes the object, as `deleting` does for deletions.
   * Only the memory backend hands the written bytes themselves to its events. A write nobody watches must not pin
   * its object, so at most WRITTEN_PENDING wait, the oldest dropped first.
   */
  private readonly written = new Map<Uint8Array, KubeObject>();
  /** Where removed objects are kept; absent when the server does not archive. */
  private readonly archive: Archive | undefined;
  /** Custom resources converted by a webhook: converted at the storage boundary, asynchronously (R11.88). */
  private readonly converter: ObjectConverter | undefined;

  constructor(
    info: ResourceInfo,
    strategy: Strategy,
    backend: Backend,
    clock: () => Date,
    admission: () => AdmissionChain,
    hooks: WriteHooks = {},
    computedFields?: ComputedFields,
    mergeType: MergeType = DEDUCED,
    conversion?: VersionConversion,
    archive?: Archive,
    converter?: ObjectConverter,
  ) {
    this.info = info;
    this.strategy = strategy;
    this.backend = backend;
    this.clock = clock;
    this.admission = admission;
    this.hooks = hooks;
    this.ref = { group: info.group, resource: info.plural };
    this.apiVersion = apiVersionOf(info.group, info.version);
    this.computedFields = computedFields;
    this.mergeType = mergeType;
    this.conversion = conversion;
    this.storageApiVersion = conversion === undefined ? this.apiVersion : apiVersionOf(info.group, conversion.storageVersion);
    this.archive = archive;
    this.converter = converter;
  }

  /** Whether objects leave storage only through an asynchronous conversion (servedItems, readConverted). */
  get convertsAsynchronously(): boolean {
    return this.converter !== undefined;
  }

  /**
   * Stored objects as this version serves them. Only webhook-converted custom resources change here (one review
   * for them all, R11.89); `path` decides how a failed conversion is reported (R11.96, R11.97).
   */
  async servedItems(items: KubeObject[], path: 'read' | 'write' = 'read', listKind?: string): Promise<KubeObject[]> {
    if (this.converter === undefined) return items;
    try {
      return await this.converter.convert(items, this.apiVersion, listKind);
    } catch (err) {
      throw conversionStatus(err, path);
    }
  }

  /** One stored object as this version serves it (see servedItems). */
  async readConverted(obj: KubeObject, path: 'read' | 'write'): Promise<KubeObject> {
    return (await this.servedItems([obj], path))[0] as KubeObject;
  }

  /** The current object a write starts from, in this version. */
  private async current(kv: KeyValue): Promise<KubeObject> {
    const obj = this.decodeStored(kv);
    return this.converter === undefined ? obj : this.readConverted(obj, 'write');
  }

  /** The bytes a write stores: a webhook-converted custom resource goes in its storage version. */
  private async storedBytes(obj: KubeObject): Promise<Uint8Array> {
    if (this.converter === undefined) return encodeObject(obj);
    try {
      const [stored] = await this.converter.convert([obj], this.converter.storageApiVersion);
      return encodeObject(stored as KubeObject);
    } catch (err) {
      throw conversionStatus(err, 'write');
    }
  }

  /** A stored-form object as this version serves it. */
  private served(obj: KubeObject): KubeObject {
    return this.conversion === undefined ? obj : this.conversion.fromStorage(obj);
  }

  /** A served-form object in the form it is stored in. */
  private toStored(obj: KubeObject): KubeObject {
    return this.conversion === undefined ? obj : this.conversion.toStorage(obj);
  }

  /**
   * Removes the object from storage, guarded by `revision`; with archiving on, its archive entry is written in the
   * same storage transaction, so neither exists without the other (issue 28).
   */
  private remove(
    key: string,
    revision: number,
    obj: KubeObject,
    stored: Uint8Array | undefined,
    fallback: 'Delete' | 'Finalized',
    requester: Requester,
  ): Promise<KeyValue> {
    const record = this.archive?.recordFor(this.info, obj, stored, requester.cause, fallback, requester.user);
    return record === undefined ? this.backend.delete(key, revision) : this.backend.deleteAndPut(key, revision, record);
  }

  /** Records an Update operation in `next` unless the write is an apply or names no manager. */
  private track(old: KubeObject | undefined, next: KubeObject, opts: WriteOptions): void {
    if (opts.applied === true || opts.fieldManager === undefined) return;
    // The field sets describe the stored form, so they are recorded under its version.
    const endpoint = endpointOf(this.info, this.mergeType, this.storageApiVersion, opts.subresource, nowSeconds(this.clock));
    trackUpdateOperation(endpoint, old, next, opts.fieldManager);
  }

  /** Compiles list/watch selectors, including the computed field labels defined for this resource right now. */
  selection(labelSelector: string | undefined, fieldSelector: string | undefined): Selection {
    return compileSelection(this.info, labelSelector, fieldSelector, this.computedFields?.of(this.info.group, this.info.plural));
  }

  private invalid(name: string, errs: ReturnType<typeof fieldError.invalid>[]): StatusError {
    return invalid(qualifiedKind(this.info), this.info.group, this.info.kind, name, errs);
  }

  /**
   * A stored object as this version serves it. Custom resources share one storage across their versions
   * (conversion strategy None), so only apiVersion differs between them.
   */
  decode(kv: KeyValue): KubeObject {
    return this.served(this.decodeStored(kv));
  }

  /** A stored object in its storage form, which writes work on. */
  private decodeStored(kv: KeyValue): KubeObject {
    const obj = decodeObject(kv);
    // Without a conversion webhook versions differ only in apiVersion (strategy None); with one, servedItems converts.
    if (this.info.custom === true && this.converter === undefined) obj.apiVersion = this.apiVersion;
    return obj;
  }

  /**
   * The object a deletion event reports: the state deleted (`previous`) at the deletion's revision (`deleted`).
   * Each object handed over by deleteOnce goes to one event only, so no two consumers share it.
   */
  deletedObject(previous: KeyValue, deleted: KeyValue): KubeObject {
    const obj = this.deleting.get(previous);
    if (obj === undefined) return this.decode(deleted);
    this.deleting.delete(previous);
    obj.metadata.resourceVersion = String(deleted.modRevision);
    return this.served(obj);
  }

  /** The object a create or update event reports: the one written, if its caller let it go, else decoded. */
  writtenObject(kv: KeyValue): KubeObject {
    const obj = this.written.get(kv.value);
    if (obj === undefined) return this.decode(kv);
    this.written.delete(kv.value);
    obj.metadata.resourceVersion = String(kv.modRevision);
    return this.served(obj);
  }

  /** Registers a disposable result before its write: the memory backend delivers the event before the write returns. */
  private handOverWritten(bytes: Uint8Array, obj: KubeObject): void {
    if (this.written.size >= WRITTEN_PENDING) this.written.delete(this.written.keys().next().value as Uint8Array);
    this.written.set(bytes, obj);
  }

  /** 409 for a write whose resourceVersion precondition no longer holds (R1.6). */
  conflictError(name: string): StatusError {
    return conflict(this.ref, name, OPTIMISTIC_LOCK_ERROR_MSG);
  }

  private async readKv(key: string, name: string): Promise<KeyValue> {
    const { kv } = await this.backend.get(key);
    if (kv === undefined) throw notFound(this.ref, name);
    return kv;
  }

  /** The object's resourceVersion without decoding it; undefined when it does not exist. */
  async currentResourceVersion(namespace: string | undefined, name: string): Promise<string | undefined> {
    const { kv } = await this.backend.get(objectKey(this.info, namespace, name));
    return kv === undefined ? undefined : String(kv.modRevision);
  }

  /**
   * A read of the current object. A `resourceVersion` (GET ?resourceVersion=) asks for one at least that new: any
   * version storage holds is, so it only has to parse and not lie in the future.
   */
  async get(namespace: string | undefined, name: string, resourceVersion?: string): Promise<KubeObject> {
    if (resourceVersion !== undefined && resourceVersion !== '') await checkNotFuture(this.backend, parseResourceVersion(resourceVersion));
    const kv = await this.readKv(objectKey(this.info, namespace, name), name);
    return this.converter === undefined ? this.decode(kv) : this.readConverted(this.decodeStored(kv), 'read');
  }

  // ---------------------------------------------------------------- create

  async create(namespace: string | undefined, body: KubeObject, opts: WriteOptions = {}): Promise<KubeObject> {
    return this.served(await this.createStored(namespace, this.toStored(body), opts));
  }

  private async createStored(namespace: string | undefined, obj: KubeObject, opts: WriteOptions): Promise<KubeObject> {
    const meta = obj.metadata;
    if (meta.resourceVersion !== undefined && meta.resourceVersion !== '') {
      // kube-apiserver lets its storage layer refuse this with a 500; the fault is the request's, so 400.
      throw badRequest('resourceVersion should not be set on objects to be created');
    }
    // R1.1: the server owns identity and deletion state.
    for (const field of SERVER_OWNED_FIELDS) delete meta[field];
    obj.apiVersion = this.storageApiVersion;
    obj.kind = this.info.kind;
    if (this.info.namespaced) meta.namespace = namespace;
    else delete meta.namespace;
    meta.uid = randomUUID();
    meta.creationTimestamp = nowSeconds(this.clock);
    const generated = (meta.name === undefined || meta.name === '') && typeof meta.generateName === 'string' && meta.generateName !== '';
    if (generated) meta.name = generateName(meta.generateName as string);
    this.strategy.applyDefaults(obj);
    this.track(undefined, obj, opts);
    const attributes = this.attributes('CREATE', obj, undefined, { ...opts, requestName: generated ? '' : undefined });
    const admission = this.admission();
    await admitKeepingManagedFields(admission, attributes);
    // Kubernetes' order: mutating admission, the storage's own steps (allocation), then the strategy and validation.
    const finish = (await this.hooks.beginCreate?.(obj, opts.dryRun === true)) ?? (async () => {});
    let stored = false;
    try {
      this.strategy.prepareForCreate(obj, opts.user);
      dropEmptyMetadata(meta);
      const errs = withTypeErrors(validateObjectMetaCreate(obj, this.info), this.strategy.validate(obj));
      if (errs.length > 0) throw this.invalid(meta.name ?? '', errs);
      opts.warnings?.push(...(this.strategy.warningsOnCreate?.(obj) ?? []));
      await admission.validate(attributes);
      if (opts.dryRun === true) return obj;
      const created = await this.createUnique(namespace, obj, generated, opts);
      stored = true;
      return created;
    } finally {
      await finish(stored);
    }
  }

  /** What admission plugins are told about a write of this resource. */
  private attributes(
    operation: AdmissionAttributes['operation'],
    object: KubeObject | undefined,
    oldObject: KubeObject | undefined,
    opts: {
      readonly dryRun?: boolean;
      readonly user?: UserInfo;
      readonly subresource?: string;
      readonly fieldManager?: string;
      /** DeleteOptions; for a create or update, the CreateOptions/UpdateOptions are rebuilt from the write's options. */
      readonly options?: Record<string, unknown>;
      readonly warnings?: string[];
      /** See AttributesInput.name. */
      readonly requestName?: string;
    },
  ): AdmissionAttributes {
    const writeOptions = {
      ...(opts.dryRun === true ? { dryRun: ['All'] } : {}),
      ...(opts.fieldManager === undefined ? {} : { fieldManager: opts.fieldManager }),
    };
    return admissionAttributes({
      operation,
      resource: this.info,
      object,
      oldObject,
      subresource: opts.subresource,
      user: opts.user,
      dryRun: opts.dryRun,
      options: opts.options ?? writeOptions,
      warnings: opts.warnings,
      name: opts.requestName,
    });
  }

  /** Stores a new object, drawing another generated name when the one drawn is taken (R1.3). */
  private async createUnique(namespace: string | undefined, obj: KubeObject, generated: boolean, opts: WriteOptions): Promise<KubeObject> {
    const meta = obj.metadata;
    for (let attempt = 1; ; attempt++) {
      const key = objectKey(this.info, namespace, meta.name ?? '');
      try {
        const bytes = await this.storedBytes(obj);
        if (opts.resultDisposable === true && this.converter === undefined) this.handOverWritten(bytes, obj);
        const kv = await this.backend.create(key, bytes).catch((err: unknown) => {
          this.written.delete(bytes);
          throw err;
        });
        // What was stored, converted back, is the answer (the round trip a lossy conversion shows in).
        if (this.converter !== undefined) return this.current(kv);
        meta.resourceVersion = String(kv.modRevision);
        return obj;
      } catch (err) {
        if (!(err instanceof KeyExistsError)) throw err;
        if (generated && attempt < GENERATE_NAME_ATTEMPTS) {
          meta.name = generateName(meta.generateName as string);
          continue;
        }
        if (generated) {
          const e = alreadyExists(this.ref, meta.name ?? '');
          throw new StatusError(409, 'AlreadyExists', `${e.message}, the server was not able to generate a unique name for the object`, {
            ...e.details,
            retryAfterSeconds: 1,
          });
        }
        const existing = await this.backend.get(key);
        const terminating = existing.kv !== undefined && this.decodeStored(existing.kv).metadata.deletionTimestamp !== undefined;
        throw alreadyExists(this.ref, meta.name ?? '', terminating ? 'object is being deleted: ' : '');
      }
    }
  }

  // ---------------------------------------------------------------- update

  /** PUT: a full replacement, conditional on metadata.resourceVersion when the body carries one (R1.6, R1.7). */
  async update(namespace: string | undefined, name: string, body: KubeObject, opts: WriteOptions = {}): Promise<KubeObject> {
    const requestedRv = body.metadata.resourceVersion;
    const conditional = requestedRv !== undefined && requestedRv !== '';
    if (!conditional && !this.strategy.allowUnconditionalUpdate) {
      // R1.7: the apiserver reports the missing version as the uint64 zero it parsed, printed %#v.
      throw this.invalid(name, [fieldError.invalid('metadata.resourceVersion', new GoLiteral('0x0'), 'must be specified for an update')]);
    }
    return this.guaranteedUpdate(namespace, name, opts, (current) => {
      if (conditional && requestedRv !== current.metadata.resourceVersion) throw conflict(this.ref, name, OPTIMISTIC_LOCK_ERROR_MSG);
      return structuredClone(body);
    });
  }

  /**
   * Reads the current object, lets `tryUpdate` produce the next one, and writes it with compare-and-swap,
   * retrying on a lost race (storage.GuaranteedUpdate). `tryUpdate` throws to abort.
   */
  async guaranteedUpdate(
    namespace: string | undefined,
    name: string,
    opts: WriteOptions,
    tryUpdate: (current: KubeObject) => KubeObject,
  ): Promise<KubeObject> {
    const key = objectKey(this.info, namespace, name);
    for (let attempt = 0; attempt < UPDATE_RETRIES; attempt++) {
      const kv = await this.readKv(key, name);
      const old = await this.current(kv);
      const next = this.toStored(tryUpdate(this.served(structuredClone(old))));
      try {
        return this.served(await this.writeUpdate(key, kv, old, next, opts));
      } catch (err) {
        if (err instanceof RevisionConflictError) continue;
        if (err instanceof KeyNotFoundError) throw notFound(this.ref, name);
        throw err;
      }
    }
    throw conflict(this.ref, name, OPTIMISTIC_LOCK_ERROR_MSG);
  }

  private async writeUpdate(key: string, kv: KeyValue, old: KubeObject, next: KubeObject, opts: WriteOptions): Promise<KubeObject> {
    const name = old.metadata.name ?? '';
    const n = next.metadata;
    const o = old.metadata;
    if (n.uid !== undefined && n.uid !== '' && n.uid !== o.uid) {
      throw conflict(this.ref, name, `Precondition failed: UID in precondition: ${n.uid}, UID in object meta: ${o.uid}`);
    }
    if (o.deletionTimestamp === undefined && n.deletionTimestamp !== undefined && n.deletionTimestamp !== null) {
      throw this.invalid(name, [fieldError.invalid('metadata.deletionTimestamp', n.deletionTimestamp, 'field is immutable')]);
    }
    if (
      n.deletionGracePeriodSeconds !== undefined &&
      n.deletionGracePeriodSeconds !== null &&
      n.deletionGracePeriodSeconds !== o.deletionGracePeriodSeconds
    ) {
      throw this.invalid(name, [
        fieldError.invalid('metadata.deletionGracePeriodSeconds', n.deletionGracePeriodSeconds, 'field is immutable'),
      ]);
    }
    next.apiVersion = this.storageApiVersion;
    next.kind = this.info.kind;
    // R1.2, R1.12, R1.14: server-owned fields are silently restored.
    n.uid = o.uid;
    n.creationTimestamp = o.creationTimestamp;
    restore(n, o, 'deletionTimestamp');
    restore(n, o, 'deletionGracePeriodSeconds');
    delete n.selfLink;
    const custom = opts.subresource === undefined ? undefined : this.strategy.subresourceUpdates?.[opts.subresource];
    if (opts.subresource === 'status' || opts.subresource === 'finalize' || custom !== undefined) {
      this.track(old, next, opts);
      // Subresource strategies copy the rest of the stored object, but keep the managedFields just recorded.
      const managedFields = n.managedFields;
      if (custom !== undefined) custom.prepare(next, old);
      else if (opts.subresource === 'status') this.strategy.prepareForStatusUpdate(next, old);
      else this.strategy.prepareForFinalizeUpdate(next, old);
      if (managedFields === undefined) delete next.metadata.managedFields;
      else next.metadata.managedFields = managedFields;
    } else {
      this.strategy.applyDefaults(next);
      this.track(old, next, opts);
    }
    const attributes = this.attributes('UPDATE', next, old, opts);
    const admission = this.admission();
    await admitKeepingManagedFields(admission, attributes);
    const mainResource = opts.subresource !== 'status' && opts.subresource !== 'finalize' && custom === undefined;
    if (mainResource) this.strategy.prepareForUpdate(next, old);
    // Only writes of the resource itself change what the storage steps care about (a Service's type).
    const finish = (mainResource ? await this.hooks.beginUpdate?.(next, old, opts.dryRun === true) : undefined) ?? (async () => {});
    let stored = false;
    try {
      const result = await this.validateAndWriteUpdate(key, kv, old, next, attributes, admission, opts);
      stored = true;
      return result;
    } finally {
      await finish(stored);
    }
  }

  /** The end of an update: the object's validation, the validating plugins, then the write or the removal (R2.35). */
  private async validateAndWriteUpdate(
    key: string,
    kv: KeyValue,
    old: KubeObject,
    next: KubeObject,
    attributes: AdmissionAttributes,
    admission: AdmissionChain,
    opts: WriteOptions,
  ): Promise<KubeObject> {
    const name = old.metadata.name ?? '';
    const n = next.metadata;
    const o = old.metadata;
    dropEmptyMetadata(n);
    const custom = opts.subresource === undefined ? undefined : this.strategy.subresourceUpdates?.[opts.subresource];
    const kindErrs =
      custom !== undefined
        ? custom.validate(next, old)
        : opts.subresource === 'status'
          ? this.strategy.validateStatusUpdate(next, old)
          : this.strategy.validateUpdate(next, old);
    const errs = withTypeErrors(validateObjectMetaUpdate(next, old, this.info), kindErrs);
    if (errs.length > 0) throw this.invalid(name, errs);
    opts.warnings?.push(...(this.strategy.warningsOnUpdate?.(next, old) ?? []));
    await admission.validate(attributes);

    // R2.35: dropping the last finalizer of a non-graceful terminating object removes it.
    const finalizersGone = (n.finalizers ?? []).length === 0;
    if (o.deletionTimestamp !== undefined && finalizersGone && !o.deletionGracePeriodSeconds && this.strategy.readyToRemove(next)) {
      if (opts.dryRun !== true) {
        let removed = true;
        try {
          await this.remove(key, kv.modRevision, next, undefined, 'Finalized', { user: opts.user });
        } catch (err) {
          if (!(err instanceof KeyNotFoundError)) throw err;
          removed = false;
        }
        // Only the call that removed it settles what the object held (a racing remover finds it gone).
        if (removed) await this.hooks.afterRemove?.(next);
      }
      return next;
    }
    return this.persist(key, kv, old, next, opts.dryRun === true, opts);
  }

  // ---------------------------------------------------------------- delete

  /** `requester` is who asks (admission plugins are told); absent: the server itself. */
  async delete(namespace: string | undefined, name: string, opts: DeleteOptions, requester: Requester = {}): Promise<DeleteResult> {
    const refusal = this.strategy.deleteRefusal?.(name);
    if (refusal !== undefined) throw forbidden(this.ref, name, refusal);
    return this.deleteItem(namespace, name, opts, requester, false);
  }

  /** `inCollection`: one item of a DELETECOLLECTION, admitted without a request name (R11.33). */
  private async deleteItem(
    namespace: string | undefined,
    name: string,
    opts: DeleteOptions,
    requester: Requester,
    inCollection: boolean,
  ): Promise<DeleteResult> {
    const optErrs = validateDeleteOptions(opts);
    if (optErrs.length > 0) throw invalid('DeleteOptions.meta.k8s.io', 'meta.k8s.io', 'DeleteOptions', '', optErrs);
    const dryRun = (opts.dryRun ?? []).includes('All');
    const key = objectKey(this.info, namespace, name);
    for (let attempt = 0; attempt < UPDATE_RETRIES; attempt++) {
      const kv = await this.readKv(key, name);
      const obj = await this.current(kv);
      checkDeletePreconditions(this.info, obj, opts);
      try {
        const result = await this.deleteOnce(key, kv, obj, opts, dryRun, requester, inCollection);
        return result.body.kind === 'Status' ? result : { ...result, body: this.served(result.body as KubeObject) };
      } catch (err) {
        if (err instanceof RevisionConflictError) continue;
        if (err instanceof KeyNotFoundError) throw notFound(this.ref, name);
        throw err;
      }
    }
    throw conflict(this.ref, name, OPTIMISTIC_LOCK_ERROR_MSG);
  }

  private async deleteOnce(
    key: string,
    kv: KeyValue,
    stored: KubeObject,
    opts: DeleteOptions,
    dryRun: boolean,
    requester: Requester,
    inCollection: boolean,
  ): Promise<DeleteResult> {
    let obj = stored;
    let revision = kv.modRevision;
    const meta = obj.metadata;
    const accepted = opts.orphanDependents === false ? 202 : 200;
    const grace = deletionGrace(this.strategy, obj, opts);
    if (grace === UNCHANGED) return { code: accepted, body: obj, removed: false };
    const attributes = this.attributes('DELETE', undefined, obj, {
      dryRun,
      user: requester.user,
      options: { ...opts },
      warnings: requester.warnings,
      requestName: inCollection ? '' : undefined,
    });
    const admission = this.admission();
    await admission.admit(attributes);
    await admission.validate(attributes);
    const gc = this.strategy.deletionFinalizers(opts, meta.finalizers ?? [], obj);
    const finalizers = gc.changed ? gc.finalizers : (meta.finalizers ?? []);
    // R1.10, R2.18, R2.22: the object stays, terminating; generation bumps only when deletion starts.
    const keep = async (deletionTimestamp: string, gracePeriod: number): Promise<DeleteResult> => {
      const next = structuredClone(obj);
      const n = next.metadata;
      if (gc.changed) {
        if (gc.finalizers.length > 0) n.finalizers = gc.finalizers;
        else delete n.finalizers;
      }
      const annotation = this.strategy.deletionAnnotation?.(opts, obj, finalizers);
      if (annotation !== undefined) setAnnotation(next, annotation.name, annotation.value);
      n.deletionTimestamp = deletionTimestamp;
      n.deletionGracePeriodSeconds = gracePeriod;
      if (meta.deletionTimestamp === undefined && (meta.generation ?? 0) > 0) n.generation = (meta.generation ?? 0) + 1;
      this.strategy.markDeleting(next);
      return { code: accepted, body: await this.persist(key, kv, obj, next, dryRun), removed: false };
    };
    const outcome = deletionOutcome(this.strategy, obj, grace, finalizers, this.clock);
    if (outcome.kind === 'mark') return keep(outcome.deletionTimestamp, outcome.gracePeriodSeconds);
    if (outcome.markFirst !== undefined) {
      obj = (await keep(outcome.markFirst, 0)).body as KubeObject;
      revision = Number(obj.metadata.resourceVersion);
    }
    if (dryRun) return this.deleted(obj);
    // Guarded by `revision`, so what goes is exactly `obj`: the answer needs no decoding of the deleted value.
    // When the answer is a Status, `obj` itself can go to the watch event. It is registered first, as the memory
    // backend delivers the event before its delete returns, and stays until an event takes it or its KeyValue goes.
    const answer = this.deleted(obj);
    const handOver = !this.strategy.returnDeletedObject && revision === kv.modRevision && this.converter === undefined;
    if (handOver) this.deleting.set(kv, obj);
    let removed = true;
    try {
      // Unless it was marked first, what goes is what was read: the archive keeps those very bytes.
      await this.remove(key, revision, obj, revision === kv.modRevision ? kv.value : undefined, 'Delete', requester);
    } catch (err) {
      if (handOver) this.deleting.delete(kv);
      // R2.19: someone else removed it meanwhile; the last known state is the answer.
      if (!(err instanceof KeyNotFoundError)) throw err;
      removed = false;
    }
    if (removed) await this.hooks.afterRemove?.(obj);
    return answer;
  }

  private deleted(obj: KubeObject): DeleteResult {
    return { code: 200, body: this.strategy.returnDeletedObject ? obj : this.successStatus(obj), removed: true };
  }

  /** Writes `next` over `old` unless nothing changed (R1.5) or this is a dry run. */
  private async persist(
    key: string,
    kv: KeyValue,
    old: KubeObject,
    next: KubeObject,
    dryRun: boolean,
    opts: WriteOptions = {},
  ): Promise<KubeObject> {
    const bytes = await this.storedBytes(next);
    if (storesSame(bytes, next, kv.value)) return old;
    if (dryRun) {
      next.metadata.resourceVersion = old.metadata.resourceVersion;
      return next;
    }
    if (opts.resultDisposable !== true || this.converter !== undefined)
      return this.current(await this.backend.update(key, bytes, kv.modRevision));
    // The caller only serialises the answer, so `next` is the answer and may go to the watch event as well.
    this.handOverWritten(bytes, next);
    const written = await this.backend.update(key, bytes, kv.modRevision).catch((err: unknown) => {
      this.written.delete(bytes);
      throw err;
    });
    next.metadata.resourceVersion = String(written.modRevision);
    return next;
  }

  private successStatus(obj: KubeObject): Status {
    const details: Status['details'] = { name: obj.metadata.name };
    if (this.info.group !== '') details.group = this.info.group;
    details.kind = this.info.plural;
    details.uid = obj.metadata.uid;
    return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details };
  }

  /** R2.39, R2.40: list with the selectors, then delete each listed item with the same options. */
  async deleteCollection(
    namespace: string | undefined,
    listOpts: StoreListOptions,
    opts: DeleteOptions,
    requester: Requester = {},
  ): Promise<KubeList> {
    const optErrs = validateDeleteOptions(opts);
    if (optErrs.length > 0) throw invalid('DeleteOptions.meta.k8s.io', 'meta.k8s.io', 'DeleteOptions', '', optErrs);
    const list = await this.list(namespace, listOpts);
    for (const item of list.items) {
      try {
        await this.deleteItem(item.metadata.namespace, item.metadata.name ?? '', structuredClone(opts), requester, true);
      } catch (err) {
        if (err instanceof StatusError && err.code === 404) continue;
        throw err;
      }
    }
    return list;
  }

  // ---------------------------------------------------------------- list

  list(namespace: string | undefined, opts: StoreListOptions = {}): Promise<KubeList> {
    return listObjects(this, namespace, opts);
  }
}
