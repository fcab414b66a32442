import { isObject } from '../../api/types.js';

/**
 * SetDefaults_Deployment's and SetDefaults_DaemonSet's strategy defaulting: an unset type becomes RollingUpdate,
 * and a RollingUpdate strategy gets its parameters object and each unset limit filled in one by one (a user who
 * writes only `type: RollingUpdate` or only `maxSurge` still gets the other defaults).
 */
export function defaultRollingStrategy(
  spec: Record<string, unknown>,
  field: string,
  limits: { maxUnavailable: number | string; maxSurge: number | string },
): void {
  if (!isObject(spec[field])) spec[field] = {};
  const strategy = spec[field] as Record<string, unknown>;
  if (strategy.type === undefined || strategy.type === '') strategy.type = 'RollingUpdate';
  if (strategy.type !== 'RollingUpdate') return;
  if (!isObject(strategy.rollingUpdate)) strategy.rollingUpdate = {};
  const rollingUpdate = strategy.rollingUpdate as Record<string, unknown>;
  rollingUpdate.maxUnavailable ??= limits.maxUnavailable;
  rollingUpdate.maxSurge ??= limits.maxSurge;
}
