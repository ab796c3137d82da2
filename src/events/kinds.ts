import { PipitError } from '../core/errors.ts';
import { didYouMean } from '../core/suggest.ts';

/** The namespace of every event kind. */
export const KIND_PREFIX = 'pipit.message.event.';

/** The kinds Pipit raises itself, by short name. */
export const CoreKinds = {
  CustomEvent: `${KIND_PREFIX}custom.CustomEvent`,
  WebhookEvent: `${KIND_PREFIX}http.hook.WebhookEvent`,
  ApplicationStartedEvent: `${KIND_PREFIX}application.ApplicationStartedEvent`,
  ApplicationStoppedEvent: `${KIND_PREFIX}application.ApplicationStoppedEvent`,
} as const;

/**
 * The event kinds an instance knows: Pipit's own and the ones plugins declare. Clients may name a
 * kind by its full name, its short name (`CustomEvent`) or SPEC's literal `svc.` prefix.
 *
 * @example
 * const kinds = new EventKinds();
 * kinds.resolve('svc.message.event.custom.CustomEvent'); // 'pipit.message.event.custom.CustomEvent'
 */
export class EventKinds {
  private readonly byShort = new Map<string, string>();
  private readonly full = new Set<string>();

  constructor() {
    for (const fq of Object.values(CoreKinds)) this.declare(fq);
  }

  /** Declares a kind (plugins: `pipit.message.event.<plugin>.<Name>`). */
  declare(fqKind: string): void {
    if (!fqKind.startsWith(KIND_PREFIX))
      throw new Error(`event kind ${fqKind} must start with ${KIND_PREFIX}`);
    this.full.add(fqKind);
    this.byShort.set(fqKind.slice(fqKind.lastIndexOf('.') + 1), fqKind);
  }

  /** The fully qualified name for any accepted spelling; BAD_REQUEST for an unknown kind. */
  resolve(name: string): string {
    const canonical = name.replace(/^(svc|platypush)\./, 'pipit.');
    if (this.full.has(canonical)) return canonical;
    const short = this.byShort.get(name);
    if (short) return short;
    throw new PipitError(
      'BAD_REQUEST',
      `unknown event kind "${name}"${didYouMean(name, this.byShort.keys())}; known kinds: ${[...this.byShort.keys()].join(', ')}`,
    );
  }

  list(): string[] {
    return [...this.full].sort();
  }
}
