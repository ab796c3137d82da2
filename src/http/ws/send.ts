import type { WebSocket } from 'ws';
import { CloseCode, closeReason } from './frames.ts';

/** How a connection's outgoing frames are bounded. */
export interface SendLimits {
  /** Bytes a socket may have queued (not yet taken by the kernel) before it is a slow consumer. */
  maxBufferedBytes: number;
  /** After the 1013 close frame is queued, how long the client gets to read up to it. */
  graceMs: number;
}

/**
 * Sends frames to one socket with a bounded send buffer. A client that does not read fast enough
 * (its queued bytes would pass `maxBufferedBytes`) is not buffered without bound, and nothing is
 * dropped silently: the connection is closed with 1013 "slow consumer", queued behind the frames
 * already sent, so a client that resumes reading sees everything up to the close and knows why.
 * A client that never reads is cut off after `graceMs`.
 *
 * @example
 * const out = new BoundedSender(socket, { maxBufferedBytes: 4 << 20, graceMs: 5000 }, onOverflow);
 * out.send(JSON.stringify(message));
 */
export class BoundedSender {
  private readonly socket: WebSocket;
  private readonly limits: SendLimits;
  private readonly onOverflow: () => void;
  private overflowed = false;

  constructor(socket: WebSocket, limits: SendLimits, onOverflow: () => void) {
    this.socket = socket;
    this.limits = limits;
    this.onOverflow = onOverflow;
  }

  /** True while frames can still be sent (open, not closed for overflow). */
  get open(): boolean {
    return !this.overflowed && this.socket.readyState === this.socket.OPEN;
  }

  /**
   * Queues one text frame (a string, or its UTF-8 bytes when the same frame goes to many sockets:
   * encoding once saves a copy per subscriber). False when it was not sent.
   */
  send(frame: string | Buffer): boolean {
    if (!this.open) return false;
    const size = typeof frame === 'string' ? Buffer.byteLength(frame) : frame.length;
    if (this.socket.bufferedAmount + size > this.limits.maxBufferedBytes) {
      this.overflow();
      return false;
    }
    this.socket.send(frame, { binary: false });
    return true;
  }

  private overflow(): void {
    this.overflowed = true;
    this.onOverflow();
    this.socket.close(
      CloseCode.TRY_AGAIN_LATER,
      closeReason(
        `slow consumer: more than ${this.limits.maxBufferedBytes} bytes waiting to be read; reconnect`,
      ),
    );
    setTimeout(() => this.socket.terminate(), this.limits.graceMs).unref();
  }
}
