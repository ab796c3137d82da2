import { PipitError } from '../../core/errors.ts';

/**
 * Refuses a topic that cannot be published to: empty, with wildcards or a NUL character.
 *
 * @example
 * checkPublishTopic('mqtt.publish', 'home/+/temp'); // throws INVALID_ARGUMENTS
 */
export function checkPublishTopic(action: string, topic: string): void {
  if (topic === '' || /[+#\0]/.test(topic)) {
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `${action}: "topic" ${JSON.stringify(topic)} cannot be published to: a topic is not empty and has no wildcards (+, #)`,
    );
  }
}

/**
 * True for a well-formed topic filter: `+` fills a whole level, `#` is the whole last level.
 *
 * @example
 * isTopicFilter('home/+/temperature'); // true
 * isTopicFilter('home/#/x'); // false
 */
export function isTopicFilter(filter: string): boolean {
  const levels = filter.split('/');
  return (
    filter !== '' &&
    !filter.includes('\0') &&
    !levels.some(
      (level, i) =>
        (level.includes('+') && level !== '+') ||
        (level.includes('#') && (level !== '#' || i !== levels.length - 1)),
    )
  );
}

/**
 * Refuses a malformed topic filter: `+` must fill a whole level, `#` must be the whole last level.
 *
 * @example
 * checkTopicFilter('mqtt.subscribe', 'home/#/x'); // throws INVALID_ARGUMENTS
 */
export function checkTopicFilter(action: string, filter: string): void {
  if (!isTopicFilter(filter)) {
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `${action}: "topic" ${JSON.stringify(filter)} is not a valid topic filter: "+" stands for one whole level and "#" for the whole rest, as in "home/+/temperature" or "home/#"`,
    );
  }
}

/**
 * True when `topic` matches the subscription `filter` (MQTT rules: `+` one level, `#` the rest,
 * wildcards at the start do not match `$SYS`-style topics; `$share/<group>/` prefixes are ignored).
 *
 * @example
 * topicMatches('home/+/temperature', 'home/kitchen/temperature'); // true
 * topicMatches('home/#', 'home'); // true
 */
export function topicMatches(filter: string, topic: string): boolean {
  const shared = /^\$share\/[^/]+\/(.*)$/.exec(filter);
  const f = (shared ? shared[1]! : filter).split('/');
  const t = topic.split('/');
  if (topic.startsWith('$') && (f[0] === '+' || f[0] === '#')) return false;
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length) return false;
    if (f[i] !== '+' && f[i] !== t[i]) return false;
  }
  return f.length === t.length;
}
