import { ANY, type ParameterSpec, type PathSpec } from './operation-spec.js';
import { nameParam, P, sortParameters } from './parameters.js';
import { type ResourceNaming, resourceOperation } from './resource-naming.js';

const query = (name: string, type: ParameterSpec['type'], description: string): ParameterSpec => ({ name, in: 'query', type, description });

/** PodLogOptions as query parameters (the log options kube-apiserver documents for readNamespacedPodLog). */
const LOG_PARAMETERS: readonly ParameterSpec[] = [
  query('container', 'string', 'The container to read the log of; may be omitted when the pod has one container.'),
  query('follow', 'boolean', 'Follow the log stream of the pod. Defaults to false.'),
  query('insecureSkipTLSVerifyBackend', 'boolean', 'Skip verifying the serving certificate of the backend the log is read from.'),
  query('limitBytes', 'integer', 'Stop after this many bytes of log; the last line may be cut.'),
  query('previous', 'boolean', 'Return the log of the previous, terminated run of the container. Defaults to false.'),
  query('sinceSeconds', 'integer', 'Only lines written in the last this many seconds; at most one of sinceSeconds and sinceTime.'),
  query('stream', 'string', 'The stream to return: All, Stdout or Stderr (with the PodLogsQuerySplitStreams feature).'),
  query('tailLines', 'integer', 'Only this many lines from the end of the log.'),
  query('timestamps', 'boolean', 'Prefix every line with an RFC3339 (nanosecond) timestamp. Defaults to false.'),
];

/** The pods/log path: a GET answered with text, not an object. */
export function podLogPath(naming: ResourceNaming): PathSpec {
  const operation = resourceOperation(naming, {
    method: 'get',
    operationId: `read${naming.id}${naming.scoped}PodLog`,
    description: 'read log of the specified Pod',
    action: 'get',
    parameters: [],
    consumes: ANY,
    produces: ['text/plain', 'application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'],
    responses: [
      { code: '200', description: 'OK', schemaType: 'string' },
      { code: '401', description: 'Unauthorized' },
    ],
  });
  return {
    path: `${naming.item}/log`,
    parameters: sortParameters([nameParam('Pod'), ...naming.nsParams, P.pretty, ...LOG_PARAMETERS]),
    operations: [operation],
  };
}
