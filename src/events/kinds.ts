import { PipitError } from '../core/errors.ts';
import { didYouMean } from '../lib/suggest.ts';

/** The namespace of every event kind. */
export const KIND_PREFIX = 'pipit.message.event.';

// `pipit.message.event.<module>[.<module>...].<Class>`, after the svc./platypush. spellings.
const WELL_FORMED = /^pipit\.message\.event\.[a-z_][\w]*(\.[a-z_][\w]*)*\.[A-Z]\w{0,99}$/;

/**
 * An event kind as clients see it under `event.namespace`: Pipit's own names, or Platypush's
 * (`platypush.message.event.*`), for clients that compare the kinds they receive.
 *
 * @example
 * presentKind('pipit.message.event.custom.CustomEvent', 'platypush'); // 'platypush.message.event.custom.CustomEvent'
 */
export function presentKind(kind: string, namespace: 'pipit' | 'platypush'): string {
  return namespace === 'platypush' && kind.startsWith('pipit.')
    ? `platypush.${kind.slice(6)}`
    : kind;
}

/** The kinds Pipit raises itself, by short name. */
export const CoreKinds = {
  CustomEvent: `${KIND_PREFIX}custom.CustomEvent`,
  WebhookEvent: `${KIND_PREFIX}http.hook.WebhookEvent`,
  ApplicationStartedEvent: `${KIND_PREFIX}application.ApplicationStartedEvent`,
  ApplicationStoppedEvent: `${KIND_PREFIX}application.ApplicationStoppedEvent`,
  /** A hook or cron run failed (`run_id`, `kind`, `name`, `errors`, `step`...). */
  RunFailedEvent: `${KIND_PREFIX}runs.RunFailedEvent`,
} as const;

/**
 * The event kinds an instance knows: Pipit's own and the ones plugins declare. Clients may name a
 * kind by its full name, its short name (`CustomEvent`) or with the generic `svc.` prefix some
 * clients send for `pipit.`.
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

  /**
   * The fully qualified name for any accepted spelling; BAD_REQUEST for an unknown short name. A
   * well-formed full name of a kind Pipit does not know (`platypush.message.event.zigbee.
   * ZigbeeEvent`) is accepted and carried like a custom event, as Platypush's clients send them.
   */
  resolve(name: string): string {
    const canonical = name.replace(/^(svc|platypush)\./, 'pipit.');
    if (this.full.has(canonical)) return canonical;
    const short = this.byShort.get(name);
    if (short) return short;
    if (WELL_FORMED.test(canonical)) return canonical;
    throw new PipitError(
      'BAD_REQUEST',
      `unknown event kind "${name}"${didYouMean(name, this.byShort.keys())}; known kinds: ${[...this.byShort.keys()].join(', ')}`,
    );
  }

  list(): string[] {
    return [...this.full].sort();
  }

  /**
   * Checks the `type` of a hook's condition: a kind this instance knows (full name, short name, a
   * dotted suffix such as `custom.CustomEvent`, or the `svc.`/`platypush.` spellings) or a namespaced
   * custom kind (`pipit.message.event.<module>.<Class>`). Anything else would never match: a
   * misspelling (`CustomEvnt`), refused with CONFIG_INVALID and a "did you mean".
   *
   * @example
   * new EventKinds().checkConditionKind('CustomEvnt'); // throws: ... Did you mean "CustomEvent"?
   */
  checkConditionKind(name: string): void {
    const canonical = name.replace(/^(svc|platypush)\./, 'pipit.');
    if (this.full.has(canonical) || this.byShort.has(name) || WELL_FORMED.test(canonical)) return;
    if ([...this.full].some((fq) => fq.endsWith(`.${name}`))) return;
    const near = didYouMean(name, [...this.byShort.keys()]) || didYouMean(canonical, this.full);
    throw new PipitError(
      'CONFIG_INVALID',
      `unknown event kind "${name}"${near || '.'} Known kinds: ${[...this.byShort.keys()].join(', ')}. A kind of your own is named in full: ${KIND_PREFIX}<module>.<Class> (or platypush.message.event.<module>.<Class>)`,
    );
  }
}
