import { createHttpClient } from '../client/http-client.js';
import { HttpTransport } from '../client/http-transport.js';
import { loadKubeconfig } from '../client/kubeconfig.js';
import { type CommandIo, parseCommandArgs, UsageError } from '../tools/command-io.js';
import { startUiServer, type UiServer } from '../ui/ui-server.js';

export const UI_USAGE = `Usage: cascade ui [--kubeconfig FILE] [--context NAME] [--port PORT]

Serves the web UI on http://127.0.0.1:PORT/: the live ownership graph of any object, why it is still there
(cascade explain), what deleting it would take (cascade delete --preview), and stuck namespaces. The page reads
the cluster through a local read-only proxy with the kubeconfig's credentials, as kubectl proxy does.

Flags:
      --kubeconfig string   kubeconfig file (default $KUBECONFIG, else ~/.kube/config)
      --context string      kubeconfig context (default its current-context)
      --port int            loopback port to listen on; 0 picks a free one (default 8001)
`;

const FLAGS = {
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
  port: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function portOf(value: string | undefined): number {
  if (value === undefined) return 8001;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new UsageError(`invalid argument "${value}" for "--port" flag: expected a port number 0-65535`);
  return port;
}

/** Starts the UI server and returns it; the caller (main) keeps the process alive until a signal. */
export async function startUiCommand(argv: readonly string[], io: CommandIo): Promise<UiServer | undefined> {
  const { values, positionals } = parseCommandArgs(argv, FLAGS);
  if (values.help === true) {
    io.stdout.write(UI_USAGE);
    return undefined;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const port = portOf(values.port);
  const selection = await loadKubeconfig({
    ...(values.kubeconfig === undefined ? {} : { path: values.kubeconfig }),
    ...(values.context === undefined ? {} : { context: values.context }),
  });
  const config = { ...selection.connection, userAgent: 'cascade-ui' };
  const client = createHttpClient(config);
  const transport = new HttpTransport(config);
  const server = await startUiServer({ client, transport, port });
  io.stdout.write(`Cascade UI for context ${selection.contextName} (${selection.connection.server}) at ${server.url}\n`);
  return {
    url: server.url,
    async close() {
      await server.close();
      client.close();
      transport.close();
    },
  };
}
