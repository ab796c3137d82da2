/** Which output a line came from. */
export type OutputStream = 'stdout' | 'stderr';

/** Lines of one stream, sent as one event. */
export interface LineBatch {
  stream: OutputStream;
  /** Whole lines, in order. */
  lines: string[];
  /** Lines of this stream left out since the previous batch: the batch was full. */
  dropped: number;
}

/** How much a streamed command may send. */
export interface BatchLimits {
  /** The most batches per second for each stream. */
  batchesPerSecond: number;
  /** The most lines in one batch; later lines are counted in `dropped` until it goes out. */
  linesPerBatch: number;
  /** The most characters in one batch (a first line is always taken whole). */
  charsPerBatch: number;
}

interface Pending {
  lines: string[];
  chars: number;
  dropped: number;
}

/**
 * Gathers streamed lines into batches, so a command printing a million lines a second costs a
 * few events a second instead of a million (each event goes through every hook and subscriber).
 * A line after a quiet spell goes out at once; lines arriving faster wait for the next batch, at
 * most `batchesPerSecond` per stream; a full batch drops further lines and counts them. A batch
 * waits for the previous one to be sent, so a slow consumer holds back nothing but one batch.
 *
 * @example
 * const batcher = new LineBatcher({ batchesPerSecond: 10, linesPerBatch: 1000, charsPerBatch: 262144 }, send);
 * batcher.push('stdout', 'line 1');
 * await batcher.end(); // send({ stream: 'stdout', lines: ['line 1'], dropped: 0 })
 */
export class LineBatcher {
  private readonly limits: BatchLimits;
  private readonly send: (batch: LineBatch) => Promise<void>;
  private readonly pending: Record<OutputStream, Pending> = {
    stdout: { lines: [], chars: 0, dropped: 0 },
    stderr: { lines: [], chars: 0, dropped: 0 },
  };
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> | undefined;
  private lastSent = 0;
  private ended = false;
  /** Lines dropped in all, both streams. */
  dropped = 0;

  constructor(limits: BatchLimits, send: (batch: LineBatch) => Promise<void>) {
    this.limits = limits;
    this.send = send;
  }

  push(stream: OutputStream, line: string): void {
    const p = this.pending[stream];
    if (
      p.lines.length >= this.limits.linesPerBatch ||
      (p.lines.length > 0 && p.chars + line.length > this.limits.charsPerBatch)
    ) {
      p.dropped++;
      this.dropped++;
    } else {
      p.lines.push(line);
      p.chars += line.length;
    }
    this.schedule();
  }

  /** Sends what is pending now, past the rate, and resolves once every batch has been sent. */
  async end(): Promise<void> {
    this.ended = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.sending;
    await this.sendPending();
  }

  private schedule(): void {
    if (this.timer || this.sending || this.ended) return;
    const wait = Math.max(0, this.lastSent + 1000 / this.limits.batchesPerSecond - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.sending = this.sendPending().finally(() => {
        this.sending = undefined;
        const { stdout, stderr } = this.pending;
        if (stdout.lines.length + stdout.dropped + stderr.lines.length + stderr.dropped)
          this.schedule();
      });
    }, wait);
  }

  private async sendPending(): Promise<void> {
    this.lastSent = Date.now();
    for (const stream of ['stdout', 'stderr'] as const) {
      const p = this.pending[stream];
      if (!p.lines.length && !p.dropped) continue;
      this.pending[stream] = { lines: [], chars: 0, dropped: 0 };
      await this.send({ stream, lines: p.lines, dropped: p.dropped });
    }
  }
}
