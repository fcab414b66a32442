import { qualifiedResource } from '../../api/resource-info.js';
import { isObject, type KubeObject, objects } from '../../api/types.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { createRestMapper, mappingForArgument } from '../../discovery/rest-mapper.js';
import { CommandFailure, type CommandIo, parseCommandArgs, runCommand, UsageError } from '../../tools/command-io.js';
import { parseDuration } from '../../tools/duration.js';
import { parseTargetArguments } from '../../tools/target.js';
import type { ToolDefaults } from './explain.js';

export const RESTORE_USAGE = `Usage: cascade restore TYPE/NAME [-n NAMESPACE] [--with-dependents] [--as-of TIME] [--dry-run]

Recreates an object from the archive (see "cascade archive") by creating a Restore and waiting for it: new uids,
owner references rewritten to the restored owners, owners first. With --with-dependents, also everything the
object's removal took with it (the garbage collector's cascade, a namespace's content, a CRD's instances).
Refused, with nothing written, when a live object has the same name or you may not create one of them.

Flags:
  -n, --namespace string    namespace of the object (default: the kubeconfig context's, else "default")
      --with-dependents     also restore what the object's removal took with it
      --dependents-only     restore only those: the object itself was re-created (e.g. a CRD applied again)
      --as-of string        the object as last removed at or before this RFC 3339 time (default: its last removal)
      --dry-run             check and list what would be restored, write nothing
      --timeout string      how long to wait for the restore (default 60s)
`;

const FLAGS = {
  namespace: { type: 'string', short: 'n' },
  'with-dependents': { type: 'boolean' },
  'dependents-only': { type: 'boolean' },
  'as-of': { type: 'string' },
  'dry-run': { type: 'boolean' },
  timeout: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const RESTORES: ResourceRef = { group: 'cascade.dev', version: 'v1alpha1', resource: 'restores' };
const POLL_MS = 100;

/** `cascade restore`: creates the Restore, waits for its end and prints what it restored or why not. */
export async function restoreCommand(
  client: ApiClient,
  argv: readonly string[],
  io: CommandIo,
  defaults: ToolDefaults = { namespace: 'default' },
): Promise<number> {
  return runCommand(io, async () => {
    const { values, positionals } = parseCommandArgs(argv, FLAGS);
    if (values.help === true) {
      io.stdout.write(RESTORE_USAGE);
      return;
    }
    const target = parseTargetArguments(positionals);
    const timeoutMs = parseDuration('timeout', values.timeout ?? '60s');
    const asOf = values['as-of'];
    if (asOf !== undefined && Number.isNaN(Date.parse(asOf)))
      throw new UsageError(`invalid argument "${asOf}" for "--as-of" flag: expected an RFC 3339 time`);
    const resources = await client.discover();
    const mapping = mappingForArgument({ mapper: createRestMapper(resources), resources }, target.type, (w) =>
      io.stderr.write(`Warning: ${w}\n`),
    );
    const gvr = mapping.resource;
    const info = resources.find((r) => r.group === gvr.group && r.version === gvr.version && r.plural === gvr.resource);
    if (info === undefined) throw new UsageError(`the server doesn't have a resource type "${target.type}"`);
    const namespace = values.namespace ?? defaults.namespace;
    const restore: KubeObject = {
      apiVersion: 'cascade.dev/v1alpha1',
      kind: 'Restore',
      metadata: { generateName: `${info.singular}-${target.name}-`.slice(0, 50) },
      spec: {
        target: {
          resource: qualifiedResource(info),
          ...(info.namespaced ? { namespace } : {}),
          name: target.name,
          ...(asOf === undefined ? {} : { asOf }),
        },
        withDependents: values['with-dependents'] === true,
        ...(values['dependents-only'] === true ? { dependentsOnly: true } : {}),
        dryRun: values['dry-run'] === true,
      },
    };
    const created = await client.create(RESTORES, undefined, restore);
    const name = created.metadata.name ?? '';
    const done = await waitForEnd(client, name, timeoutMs);
    const ok = printResult(io, name, done);
    if (!ok) throw new CommandFailure(`restore ${name} failed`);
  });
}

async function waitForEnd(client: ApiClient, name: string, timeoutMs: number): Promise<KubeObject> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const current = await client.get(RESTORES, undefined, name);
    if (isObject(current.status) && objects(current.status.conditions).length > 0) return current;
    if (Date.now() > deadline) throw new CommandFailure(`timed out waiting for restore ${name}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

const cell = (value: unknown): string => (typeof value === 'string' && value !== '' ? value : '<none>');

/** Aligned columns, as kubectl's tabwriter prints them (three spaces between). */
export function formatColumns(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((c, i) => (i === r.length - 1 ? c : c.padEnd((widths[i] ?? 0) + 3)))
        .join('')
        .trimEnd(),
    )
    .join('\n');
}

/** Prints the outcome; true when the restore completed. */
function printResult(io: CommandIo, name: string, restore: KubeObject): boolean {
  const status = isObject(restore.status) ? restore.status : {};
  const condition = objects(status.conditions)[0] ?? {};
  const complete = condition.type === 'Complete';
  io.stdout.write(`restore.cascade.dev/${name}: ${String(condition.type)} (${String(condition.message)})\n`);
  const restored = objects(status.restored);
  if (restored.length > 0) {
    const rows = [['RESOURCE', 'NAMESPACE', 'NAME', 'OLD UID', 'NEW UID']];
    for (const r of restored) rows.push([cell(r.resource), cell(r.namespace), cell(r.name), cell(r.oldUID), cell(r.newUID)]);
    io.stdout.write(`${formatColumns(rows)}\n`);
  }
  const refused = objects(status.notRestored);
  if (refused.length > 0) {
    const rows = [['RESOURCE', 'NAMESPACE', 'NAME', 'OLD UID', 'WHY NOT']];
    for (const r of refused) rows.push([cell(r.resource), cell(r.namespace), cell(r.name), cell(r.oldUID), cell(r.message)]);
    io.stdout.write(`${formatColumns(rows)}\n`);
  }
  return complete;
}
