import type { KubeObject } from '../../api/types.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { type CommandIo, parseCommandArgs, runCommand } from '../../tools/command-io.js';
import type { ToolDefaults } from './explain.js';
import { formatColumns } from './restore.js';

export const ARCHIVE_USAGE = `Usage: cascade archive [-n NAMESPACE | -A]

Lists what can be restored: the archived objects of a namespace (and the cluster-scoped ones), newest first,
with when and why each was removed. Restore one with "cascade restore TYPE/NAME".

Flags:
  -n, --namespace string   namespace to list (default: the kubeconfig context's, else "default")
  -A, --all-namespaces     list every namespace
`;

const FLAGS = {
  namespace: { type: 'string', short: 'n' },
  'all-namespaces': { type: 'boolean', short: 'A' },
  help: { type: 'boolean', short: 'h' },
} as const;

const ARCHIVED: ResourceRef = { group: 'cascade.dev', version: 'v1alpha1', resource: 'archivedobjects' };
const CLUSTER_ARCHIVED: ResourceRef = { group: 'cascade.dev', version: 'v1alpha1', resource: 'clusterarchivedobjects' };

interface Row {
  readonly entry: KubeObject;
  readonly original: Record<string, string>;
  readonly deletion: { time: string; reason: string; ownerUIDs?: string[]; namespace?: string; crd?: string; user: { username: string } };
}

function reason(d: Row['deletion']): string {
  if (d.reason === 'Cascade') return `Cascade(owner=${d.ownerUIDs?.[0] ?? ''})`;
  if (d.reason === 'NamespaceTerminating') return `NamespaceTerminating(${d.namespace ?? ''})`;
  if (d.reason === 'CRDRemoval') return `CRDRemoval(${d.crd ?? ''})`;
  return d.reason;
}

/** `cascade archive`: a table of the archived objects, newest removal first. */
export async function archiveCommand(
  client: ApiClient,
  argv: readonly string[],
  io: CommandIo,
  defaults: ToolDefaults = { namespace: 'default' },
): Promise<number> {
  return runCommand(io, async () => {
    const { values } = parseCommandArgs(argv, FLAGS);
    if (values.help === true) {
      io.stdout.write(ARCHIVE_USAGE);
      return;
    }
    const namespace = values['all-namespaces'] === true ? undefined : (values.namespace ?? defaults.namespace);
    const [namespaced, cluster] = await Promise.all([client.list(ARCHIVED, namespace), client.list(CLUSTER_ARCHIVED, undefined)]);
    const rows: Row[] = [...namespaced.items, ...cluster.items].map((entry) => ({
      entry,
      original: entry.original as Record<string, string>,
      deletion: entry.deletion as Row['deletion'],
    }));
    rows.sort((a, b) => Date.parse(b.deletion.time) - Date.parse(a.deletion.time));
    if (rows.length === 0) {
      io.stdout.write(namespace === undefined ? 'No archived objects found.\n' : `No archived objects found in ${namespace} namespace.\n`);
      return;
    }
    const table = [['RESOURCE', 'NAMESPACE', 'NAME', 'DELETED', 'REASON', 'BY', 'UID']];
    for (const r of rows) {
      table.push([
        r.original.resource ?? '',
        r.original.namespace ?? '',
        r.original.name ?? '',
        r.deletion.time,
        reason(r.deletion),
        r.deletion.user.username,
        r.original.uid ?? '',
      ]);
    }
    io.stdout.write(`${formatColumns(table)}\n`);
  });
}
