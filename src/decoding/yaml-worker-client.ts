import { Worker } from 'node:worker_threads';
import type { YamlConversion } from './yaml-to-json.js';

/**
 * How long one YAML body may take to convert. The `yaml` package needs seconds for a few MiB of hostile (or merely
 * large) YAML; past this the worker is replaced and the body refused.
 */
export const YAML_CONVERSION_BUDGET_MS = 10_000;

interface Job {
  readonly id: number;
  readonly text: string;
  readonly resolve: (result: YamlConversion) => void;
}

/**
 * YAML bodies are converted on a worker thread, one at a time: the parser recurses per nesting level (the worker's
 * stack is large enough for go-yaml's 10,000), can take seconds, and allocates a lot, none of which may touch the
 * event loop that serves everyone else. A conversion that runs out of time or memory costs only the worker.
 */
export class YamlWorkerClient {
  #worker: Worker | undefined;
  readonly #queue: Job[] = [];
  #running: Job | undefined;
  #timer: NodeJS.Timeout | undefined;
  #nextId = 0;

  convert(text: string): Promise<YamlConversion> {
    return new Promise((resolve) => {
      this.#queue.push({ id: this.#nextId++, text, resolve });
      this.#pump();
    });
  }

  #pump(): void {
    if (this.#running !== undefined) return;
    const job = this.#queue.shift();
    if (job === undefined) return;
    this.#running = job;
    const worker = this.#ensureWorker();
    this.#timer = setTimeout(() => this.#fail(`document took longer than ${YAML_CONVERSION_BUDGET_MS / 1000}s to parse`), YAML_CONVERSION_BUDGET_MS);
    worker.postMessage({ id: job.id, text: job.text });
  }

  #ensureWorker(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    const worker = new Worker(new URL('./yaml-worker.js', import.meta.url), {
      resourceLimits: { stackSizeMb: 64, maxOldGenerationSizeMb: 1024 },
    });
    worker.on('message', (message: { readonly id: number; readonly result: YamlConversion }) => {
      if (this.#running?.id !== message.id) return;
      this.#finish(message.result);
    });
    // Events of a worker already replaced concern a job already answered.
    worker.on('error', (err) => {
      if (this.#worker !== worker) return;
      const outOfMemory = (err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.#fail(outOfMemory ? 'document too large to parse' : err.message);
    });
    worker.on('exit', () => {
      if (this.#worker === worker) this.#fail('document could not be parsed');
    });
    // An idle worker must not keep the process alive; the server's own socket does while it serves.
    worker.unref();
    this.#worker = worker;
    return worker;
  }

  #finish(result: YamlConversion): void {
    const job = this.#running;
    clearTimeout(this.#timer);
    this.#running = undefined;
    job?.resolve(result);
    this.#pump();
  }

  /** Ends the running job with `error`; the worker is replaced, since it may still be busy with the job. */
  #fail(error: string): void {
    const worker = this.#worker;
    this.#worker = undefined;
    void worker?.terminate();
    if (this.#running !== undefined) this.#finish({ error });
  }
}

/** The process's YAML worker, started on the first YAML body. */
export const yamlWorker = new YamlWorkerClient();
