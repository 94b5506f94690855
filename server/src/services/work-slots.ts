// Heavy requests shared fairly (issue 38 item 1, issue 42): each trader has at most one running (a second is
// refused at once, 429 with Retry-After), at most `atOnce` run in the process and the others wait their turn in
// arrival order (up to `waiting`; beyond, 429). The analysis and the what-if replay each have their own.
import type { FastifyReply } from 'fastify';
import { HttpError } from '../http-error';

export interface WorkSlotsOptions {
  atOnce: number;
  waiting: number;
  /** The 429 detail when the trader's own request is still running / when the queue is full. */
  running: string;
  busy: string;
}

export class WorkSlots {
  private readonly runningFor = new Set<string>();
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly options: WorkSlotsOptions) {}

  /** Runs `task` for `userUuid` in a slot, or refuses with 429. */
  async run<T>(userUuid: string, reply: FastifyReply, task: () => Promise<T>): Promise<T> {
    if (this.runningFor.has(userUuid)) {
      reply.header('Retry-After', '2');
      throw new HttpError(429, this.options.running);
    }
    this.runningFor.add(userUuid);
    try {
      if (this.running >= this.options.atOnce) {
        if (this.queue.length >= this.options.waiting) {
          reply.header('Retry-After', '5');
          throw new HttpError(429, this.options.busy);
        }
        await new Promise<void>((resolve) => this.queue.push(resolve));
      }
      this.running += 1;
      try {
        return await task();
      } finally {
        this.running -= 1;
        this.queue.shift()?.();
      }
    } finally {
      this.runningFor.delete(userUuid);
    }
  }
}
