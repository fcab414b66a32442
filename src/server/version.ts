/** What /version reports: a Kubernetes version kubectl accepts, marked as Cascade's. */
export const KUBERNETES_VERSION = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0-cascade',
  gitCommit: '',
  gitTreeState: 'clean',
  buildDate: '2026-11-21T00:00:00Z',
  goVersion: `node ${process.version}`,
  compiler: 'gc',
  platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
} as const;
