import { readFile } from 'node:fs/promises';
import type { UserInfo } from '../../api/user.js';
import { readGoCsv } from './go-csv.js';

export type TokenFileWarning = (message: string) => void;

function warnOnStderr(message: string): void {
  process.stderr.write(`${message}\n`);
}

/**
 * kube-apiserver's --token-auth-file: `token,user,uid[,"group1,group2"]` per line; further columns are ignored.
 * A record with an empty token is skipped and a repeated token replaces the earlier one, each with a warning,
 * as kube-apiserver does. `source` names the file in messages.
 */
export function parseTokenFile(text: string, source: string, warn: TokenFileWarning = warnOnStderr): Map<string, UserInfo> {
  const tokens = new Map<string, UserInfo>();
  let recordNumber = 0;
  for (const record of readGoCsv(text)) {
    const [token, name, uid, groups] = record;
    if (token === undefined || name === undefined || uid === undefined) {
      throw new Error(`token file '${source}' must have at least 3 columns (token, user name, user uid), found ${record.length}`);
    }
    recordNumber++;
    if (token === '') {
      warn(`empty token has been found in token file '${source}', record number '${recordNumber}'`);
      continue;
    }
    if (tokens.has(token)) {
      warn(`duplicate token has been found in token file '${source}', record number '${recordNumber}'`);
    }
    // An empty fourth column still yields one empty group name, as Go's strings.Split does.
    const user: UserInfo = { name, groups: groups === undefined ? [] : groups.split(','), ...(uid === '' ? {} : { uid }) };
    tokens.set(token, user);
  }
  return tokens;
}

export async function loadTokenFile(path: string, warn: TokenFileWarning = warnOnStderr): Promise<Map<string, UserInfo>> {
  return parseTokenFile(await readFile(path, 'utf8'), path, warn);
}
