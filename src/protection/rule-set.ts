import type { KubeObject } from '../api/types.js';
import { createSharedInformer, type SharedInformer } from '../cache/shared-informer.js';
import type { ApiClient } from '../client/interface.js';
import type { ComputedFields } from '../registry/computed-fields.js';
import { type CompiledRule, compileRule } from './compiled-rule.js';
import { PROTECTION_RULES, type ProtectionRule } from './rule-types.js';

/**
 * The API server's view of the ProtectionRules in force, for admission and for field selection. A rule is in
 * force from when the server sees it until its deletion starts. While in force it defines its reference field
 * label on the dependent resource (computed-fields.ts), so a LIST of dependents can select one provider's users.
 * Rule specs are immutable (admission), so a rule is compiled once per uid.
 */
export class ProtectionRuleSet {
  private readonly informer: SharedInformer;
  private readonly computedFields: ComputedFields;
  /** Rule name → uid and compiled rule. */
  private readonly active = new Map<string, { uid: string; rule: CompiledRule }>();

  constructor(client: ApiClient, computedFields: ComputedFields) {
    this.computedFields = computedFields;
    this.informer = createSharedInformer(client, PROTECTION_RULES, undefined);
    this.informer.addEventHandler({
      onAdd: (obj) => this.observe(obj),
      onUpdate: (_old, obj) => this.observe(obj),
      onDelete: (obj) => this.forget(obj.metadata.name ?? ''),
    });
  }

  async start(): Promise<void> {
    this.informer.start();
    await this.informer.whenSynced();
  }

  async stop(): Promise<void> {
    await this.informer.stop();
    for (const name of [...this.active.keys()]) this.forget(name);
  }

  all(): CompiledRule[] {
    return [...this.active.values()].map((entry) => entry.rule);
  }

  /** Rules protecting objects of this resource (any version). */
  forProvider(group: string, resource: string): CompiledRule[] {
    return this.all().filter((rule) => rule.provider.group === group && rule.provider.resource === resource);
  }

  /** Rules whose dependents are objects of this resource (any version). */
  forDependent(group: string, resource: string): CompiledRule[] {
    return this.all().filter((rule) => rule.dependent.group === group && rule.dependent.resource === resource);
  }

  private observe(obj: KubeObject): void {
    const name = obj.metadata.name ?? '';
    if (obj.metadata.deletionTimestamp !== undefined) {
      this.forget(name);
      return;
    }
    if (this.active.get(name)?.uid === obj.metadata.uid) return;
    this.forget(name);
    const rule = compileRule(obj as ProtectionRule);
    this.active.set(name, { uid: obj.metadata.uid ?? '', rule });
    this.computedFields.define(rule.dependent.group, rule.dependent.resource, rule.fieldLabel, rule.referencedProviders);
  }

  private forget(name: string): void {
    const entry = this.active.get(name);
    if (entry === undefined) return;
    this.active.delete(name);
    this.computedFields.remove(entry.rule.dependent.group, entry.rule.dependent.resource, entry.rule.fieldLabel);
  }
}
