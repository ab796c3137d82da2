import type { PluginStatus } from '../api/index.ts';
import { PipitError } from '../api/index.ts';

/**
 * What the plugin knows of its link to the Bot API, reported with setStatus (`pipit status`): up,
 * down (with when the next attempt is), or refused (a bad token: nothing is retried). Actions ask
 * {@link TelegramLink.check} first, so that they fail at once instead of waiting for a timeout.
 *
 * @example
 * link.down('the Bot API at api.telegram.org is not reachable: ECONNREFUSED', 2);
 * link.check(); // throws UNAVAILABLE "... retrying in 2 s"
 */
export class TelegramLink {
  connected = false;
  detail: string;
  private retryAt = 0;
  private refusedWith: string | undefined;
  private readonly report: (status: PluginStatus) => void;

  constructor(report: (status: PluginStatus) => void, host: string) {
    this.report = report;
    this.detail = `connecting to ${host}`;
    report({ connected: false, detail: this.detail });
  }

  /** The Bot API answered. */
  up(detail: string): void {
    this.retryAt = 0;
    if (this.connected && this.detail === detail) return;
    this.connected = true;
    this.detail = detail;
    this.report({ connected: true, detail });
  }

  /** The Bot API could not be reached; the next attempt is in `retrySeconds`. */
  down(reason: string, retrySeconds: number): void {
    this.connected = false;
    this.detail = reason;
    this.retryAt = Date.now() + retrySeconds * 1000;
    this.report({
      connected: false,
      detail: `${reason}; retrying in ${Math.ceil(retrySeconds)} s`,
    });
  }

  /** The Bot API refused the token: nothing works until the configuration changes. */
  refuse(message: string): void {
    this.connected = false;
    this.refusedWith = message;
    this.detail = message;
    this.report({ connected: false, detail: `${message}; stopped until the token is fixed` });
  }

  /** Throws UNAVAILABLE while the token is refused, or while the link is down and not retried yet. */
  check(): void {
    if (this.refusedWith) throw new PipitError('UNAVAILABLE', this.refusedWith);
    const left = this.retryAt - Date.now();
    if (!this.connected && left > 0)
      throw new PipitError(
        'UNAVAILABLE',
        `chat.telegram is not connected: ${this.detail.replace(/^chat\.telegram: /, '')}; retrying in ${Math.ceil(left / 1000)} s`,
      );
  }
}
