import { describeRef } from './object-ref.js';
import type { CascadeTree, TreeNode } from './tree.js';

function stateText(node: TreeNode): string {
  const parts: string[] = [];
  if (node.state === undefined) parts.push('missing');
  else {
    if (node.state.deletingDependents) parts.push('deleting dependents');
    else if (node.state.terminating) parts.push('terminating');
    if (node.state.finalizers.length > 0) parts.push(`finalizers: ${node.state.finalizers.join(', ')}`);
  }
  if (node.link !== undefined) {
    if (node.link.blocking) parts.push('blocks owner');
    else if (node.link.blockOwnerDeletion) parts.push('blockOwnerDeletion');
    if (node.link.controller) parts.push('controller');
    if (node.link.problem !== undefined) parts.push(`invalid reference: ${node.link.problem}`);
  }
  if (node.repeated === true) parts.push('shown above');
  return parts.join('; ');
}

interface Row {
  readonly namespace: string;
  readonly object: string;
  readonly state: string;
}

function rows(node: TreeNode, prefix: string, childPrefix: string, out: Row[]): void {
  out.push({ namespace: node.object.namespace ?? '(cluster)', object: `${prefix}${describeRef(node.object, node.object.namespace)}`, state: stateText(node) });
  node.children.forEach((child, i) => {
    const last = i === node.children.length - 1;
    rows(child, `${childPrefix}${last ? '└─' : '├─'}`, `${childPrefix}${last ? '  ' : '│ '}`, out);
  });
}

/** kubectl-tree's layout: a namespace column, the tree, and each node's deletion state. */
export function renderTree(doc: CascadeTree): string {
  const out: Row[] = [];
  rows(doc.root, '', '', out);
  const header: Row = { namespace: 'NAMESPACE', object: doc.direction === 'owners' ? 'OWNERS' : 'NAME', state: 'DELETION STATE' };
  const all = [header, ...out];
  const nsWidth = Math.max(...all.map((r) => r.namespace.length));
  const objWidth = Math.max(...all.map((r) => [...r.object].length));
  const lines = all.map((r) => `${r.namespace.padEnd(nsWidth)}  ${r.object}${' '.repeat(objWidth - [...r.object].length)}  ${r.state}`.trimEnd());
  for (const f of doc.incomplete) lines.push(`warning: could not list ${f.resource} (${f.error}); its objects are missing from the tree`);
  return `${lines.join('\n')}\n`;
}
