import { parentPort } from 'node:worker_threads';
import { yamlToJson } from './yaml-to-json.js';

/** The YAML worker's side: one conversion per message, answered with the same id. */
parentPort?.on('message', (message: { readonly id: number; readonly text: string }) => {
  parentPort?.postMessage({ id: message.id, result: yamlToJson(message.text) });
});
