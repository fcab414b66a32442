import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { parse } from 'yaml';
import type { HttpClientConfig } from './http-transport.js';

/** Where to find the kubeconfig and which context to use (kubectl's --kubeconfig and --context). */
export interface LoadKubeconfigOptions {
  /** An explicit file; it must exist. Otherwise $KUBECONFIG (a path list), otherwise ~/.kube/config. */
  readonly path?: string;
  /** Overrides current-context. */
  readonly context?: string;
  /** Defaults to process.env; only KUBECONFIG is read. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Defaults to the user's home directory. */
  readonly homeDir?: string;
}

/** The selected context, resolved into what the HTTP client needs. */
export interface KubeconfigSelection {
  readonly contextName: string;
  readonly clusterName: string;
  readonly userName: string;
  /** The context's namespace, "default" when it names none. */
  readonly namespace: string;
  /** The files that were merged, in precedence order. */
  readonly files: readonly string[];
  readonly connection: HttpClientConfig;
}

type Entry = Record<string, unknown>;

/** One kubeconfig file's named entries, with relative paths already made absolute against its directory. */
interface ConfigFile {
  readonly path: string;
  readonly currentContext: string;
  readonly clusters: Map<string, Entry>;
  readonly users: Map<string, Entry>;
  readonly contexts: Map<string, Entry>;
}

const PATH_FIELDS = ['certificate-authority', 'client-certificate', 'client-key', 'tokenFile'];

function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(entry: Entry, field: string): string | undefined {
  const value = entry[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Reads a `clusters`/`users`/`contexts` list into name → inner object, resolving file paths like client-go does. */
function namedEntries(doc: Entry, list: string, inner: string, baseDir: string, path: string): Map<string, Entry> {
  const result = new Map<string, Entry>();
  const items = doc[list];
  if (items === undefined || items === null) return result;
  if (!Array.isArray(items)) throw new Error(`cannot parse kubeconfig ${path}: "${list}" must be a list`);
  for (const item of items) {
    if (!isEntry(item) || typeof item.name !== 'string')
      throw new Error(`cannot parse kubeconfig ${path}: every entry of "${list}" needs a name`);
    const body: Entry = isEntry(item[inner]) ? { ...(item[inner] as Entry) } : {};
    for (const field of PATH_FIELDS) {
      const value = text(body, field);
      if (value !== undefined && !isAbsolute(value)) body[field] = resolve(baseDir, value);
    }
    if (!result.has(item.name)) result.set(item.name, body);
  }
  return result;
}

/** Parses one kubeconfig document (YAML 1.1, like the Go YAML library kubectl uses). */
function parseKubeconfig(source: string, path: string): ConfigFile {
  let doc: unknown;
  try {
    doc = parse(source, { version: '1.1' });
  } catch (err) {
    throw new Error(`cannot parse kubeconfig ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (doc === null || doc === undefined) doc = {};
  if (!isEntry(doc)) throw new Error(`cannot parse kubeconfig ${path}: expected a mapping at the top level`);
  const baseDir = dirname(path);
  return {
    path,
    currentContext: text(doc, 'current-context') ?? '',
    clusters: namedEntries(doc, 'clusters', 'cluster', baseDir, path),
    users: namedEntries(doc, 'users', 'user', baseDir, path),
    contexts: namedEntries(doc, 'contexts', 'context', baseDir, path),
  };
}

/** The files to merge: an explicit path, else every existing entry of $KUBECONFIG, else ~/.kube/config. */
async function readConfigFiles(options: LoadKubeconfigOptions): Promise<ConfigFile[]> {
  if (options.path !== undefined) return [await readConfigFile(resolve(options.path))];
  const env = options.env ?? process.env;
  const list = env.KUBECONFIG;
  if (list !== undefined && list !== '') {
    const paths = [
      ...new Set(
        list
          .split(delimiter)
          .filter((p) => p !== '')
          .map((p) => resolve(p)),
      ),
    ];
    const files: ConfigFile[] = [];
    // client-go skips entries of the list that do not exist, but not ones it cannot read.
    for (const path of paths) {
      const file = await readConfigFile(path, true);
      if (file !== undefined) files.push(file);
    }
    if (files.length === 0) throw new Error(`no kubeconfig found: none of the files in $KUBECONFIG exist (${paths.join(delimiter)})`);
    return files;
  }
  const path = join(options.homeDir ?? homedir(), '.kube', 'config');
  const file = await readConfigFile(path, true);
  if (file === undefined) throw new Error(`no kubeconfig found: ${path} does not exist and $KUBECONFIG is not set`);
  return [file];
}

async function readConfigFile(path: string, missingOk: true): Promise<ConfigFile | undefined>;
async function readConfigFile(path: string): Promise<ConfigFile>;
async function readConfigFile(path: string, missingOk = false): Promise<ConfigFile | undefined> {
  let source: string;
  try {
    source = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (missingOk && code === 'ENOENT') return undefined;
    throw new Error(`cannot read kubeconfig ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return parseKubeconfig(source, path);
}

/** First file to define a name wins, as in client-go's merge of a KUBECONFIG list. */
function lookup(files: readonly ConfigFile[], kind: 'clusters' | 'users' | 'contexts', name: string): Entry | undefined {
  for (const file of files) {
    const entry = file[kind].get(name);
    if (entry !== undefined) return entry;
  }
  return undefined;
}

async function readReferencedFile(path: string, what: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (err) {
    throw new Error(`cannot read ${what} ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Inline base64 data wins over a file path, as in client-go. */
async function dataOrFile(entry: Entry, field: string, what: string): Promise<Buffer | undefined> {
  const data = text(entry, `${field}-data`);
  if (data !== undefined) return Buffer.from(data, 'base64');
  const path = text(entry, field);
  return path === undefined ? undefined : readReferencedFile(path, what);
}

function isTrue(value: unknown): boolean {
  return value === true || value === 'true';
}

/** Loads the kubeconfig kubectl would use and resolves its current (or the given) context into client settings. */
export async function loadKubeconfig(options: LoadKubeconfigOptions = {}): Promise<KubeconfigSelection> {
  const files = await readConfigFiles(options);
  const contextName = options.context ?? files.find((f) => f.currentContext !== '')?.currentContext;
  if (contextName === undefined) throw new Error('current-context is not set in kubeconfig; name a context to use');
  const context = lookup(files, 'contexts', contextName);
  if (context === undefined) throw new Error(`no context "${contextName}" in kubeconfig`);
  const clusterName = text(context, 'cluster');
  if (clusterName === undefined) throw new Error(`context "${contextName}" names no cluster`);
  const cluster = lookup(files, 'clusters', clusterName);
  if (cluster === undefined) throw new Error(`no cluster "${clusterName}" in kubeconfig (used by context "${contextName}")`);
  const server = text(cluster, 'server');
  if (server === undefined) throw new Error(`cluster "${clusterName}" has no server`);
  const userName = text(context, 'user') ?? '';
  const user = userName === '' ? {} : lookup(files, 'users', userName);
  if (user === undefined) throw new Error(`no user "${userName}" in kubeconfig (used by context "${contextName}")`);
  if (user.exec !== undefined || user['auth-provider'] !== undefined) {
    throw new Error(
      `user "${userName}" authenticates with an exec or auth-provider plugin, which this client does not run; use a token or client certificate`,
    );
  }

  const connection: { -readonly [K in keyof HttpClientConfig]: HttpClientConfig[K] } = { server };
  const ca = await dataOrFile(cluster, 'certificate-authority', 'certificate authority');
  if (ca !== undefined) connection.ca = ca;
  if (isTrue(cluster['insecure-skip-tls-verify'])) connection.insecureSkipTLSVerify = true;
  const token = text(user, 'token');
  const tokenFile = text(user, 'tokenFile');
  if (token !== undefined) connection.token = token;
  else if (tokenFile !== undefined) connection.token = (await readReferencedFile(tokenFile, 'token file')).toString('utf8').trim();
  const clientCert = await dataOrFile(user, 'client-certificate', 'client certificate');
  const clientKey = await dataOrFile(user, 'client-key', 'client key');
  if ((clientCert === undefined) !== (clientKey === undefined)) {
    throw new Error(`user "${userName}" needs both a client certificate and a client key`);
  }
  if (clientCert !== undefined) connection.clientCert = clientCert;
  if (clientKey !== undefined) connection.clientKey = clientKey;
  const username = text(user, 'username');
  const password = text(user, 'password');
  if (username !== undefined) connection.username = username;
  if (password !== undefined) connection.password = password;

  return {
    contextName,
    clusterName,
    userName,
    namespace: text(context, 'namespace') ?? 'default',
    files: files.map((f) => f.path),
    connection,
  };
}
