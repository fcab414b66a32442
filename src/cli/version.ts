import { readFileSync } from 'node:fs';
import { KUBERNETES_VERSION } from '../server/version.js';

/** `cascade --version`: Cascade's own version (package.json) and the Kubernetes version it serves, as /version reports it. */
export function versionLine(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return `Cascade v${pkg.version} (Kubernetes ${KUBERNETES_VERSION.gitVersion})\n`;
}
