// A few worker threads for work that must not hold the event loop (issue 42: the what-if replay). Each worker
// runs one task at a time; tasks wait in arrival order for a free worker (the caller bounds how many wait). A
// worker that dies is replaced and its task fails; close() ends them all. The entry is a TypeScript module that
// answers `{ id, input }` with `{ id, result }` or `{ id, error }` (worker-boot.mjs loads it).
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

interface Task<I, O> {
  id: number;
  input: I;
  resolve(value: O): void;
  reject(error: Error): void;
}

interface Slot<I, O> {
  worker: Worker;
  task?: Task<I, O>;
}

const BOOT = new URL('./worker-boot.mjs', import.meta.url);

/** One worker per core but one, the event loop's: at least 1, at most `max`. */
export const workersFor = (max: number): number => Math.max(1, Math.min(max, availableParallelism() - 1));
/** The process's pool of heavy work (the what-if replays and the analyses' lag scans): at most 2 workers. */
export const HEAVY_WORKERS = workersFor(2);

export class WorkerPool<I, O> {
  private readonly slots: Slot<I, O>[] = [];
  private readonly queue: Task<I, O>[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly entry: URL,
    readonly size: number,
  ) {}

  /** Tasks running or waiting. */
  get pending(): number {
    return this.queue.length + this.slots.filter((slot) => slot.task).length;
  }

  run(input: I): Promise<O> {
    if (this.closed) return Promise.reject(new Error('the worker pool is closed'));
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, input, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((candidate) => !candidate.task);
      if (!slot && this.slots.length < this.size) slot = this.start();
      if (!slot) return;
      const task = this.queue.shift() as Task<I, O>;
      slot.task = task;
      slot.worker.postMessage({ id: task.id, input: task.input });
    }
  }

  private start(): Slot<I, O> {
    const worker = new Worker(BOOT, { workerData: { entry: this.entry.href } });
    worker.unref();
    const slot: Slot<I, O> = { worker };
    worker.on('message', (message: { id: number; result?: O; error?: string }) => {
      const task = slot.task;
      if (!task || task.id !== message.id) return;
      slot.task = undefined;
      if (message.error !== undefined) task.reject(new Error(message.error));
      else task.resolve(message.result as O);
      this.dispatch();
    });
    const lost = (error: Error) => {
      const index = this.slots.indexOf(slot);
      if (index < 0) return;
      this.slots.splice(index, 1);
      slot.task?.reject(error);
      slot.task = undefined;
      if (!this.closed) this.dispatch();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the worker stopped (exit code ${code})`)));
    this.slots.push(slot);
    return slot;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(new Error('the worker pool is closed'));
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }
}
