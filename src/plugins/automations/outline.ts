import { isPlainObject } from '../../procedures/values.ts';
import type { OutlineStep } from './wire.ts';

const BLOCK =
  /^(if|elif|while)\s+\$\{([\s\S]*)\}\s*$|^(for|fork)\s+(\S+)\s+in\s+\$\{([\s\S]*)\}\s*$/;

/**
 * The steps of an automation as a tree, from its YAML value as written (a procedure's body, a
 * hook's `then`, a cron's `actions`), already checked by the loader: arguments are shown as
 * written, conditions without their `${}`.
 *
 * @example
 * outline([{ action: 'utils.echo', args: { a: 1 } }]); // [{type: 'action', action: 'utils.echo', args: {a: 1}}]
 */
export function outline(raw: unknown): OutlineStep[] {
  const items: unknown[] = Array.isArray(raw) ? raw : isPlainObject(raw) ? [raw] : [];
  const out: OutlineStep[] = [];
  for (const item of items) {
    if (typeof item === 'string') {
      const text = item.trim();
      if (text === 'break' || text === 'continue') out.push({ type: text });
      else if (text.startsWith('return'))
        out.push({ type: 'return', value: text.slice(6).trim() || null });
      continue;
    }
    if (!isPlainObject(item)) continue;
    if (Object.hasOwn(item, 'action')) {
      out.push({
        type: 'action',
        action: String(item.action),
        args: item.args ?? {},
        ...(item.ignore_errors === true ? { ignore_errors: true } : {}),
        ...(item.target === undefined ? {} : { target: item.target }),
      });
    } else if (Object.hasOwn(item, 'set')) {
      out.push({ type: 'set', values: isPlainObject(item.set) ? item.set : {} });
    } else if (Object.hasOwn(item, 'return')) {
      out.push({ type: 'return', value: item.return ?? null });
    } else {
      const key = Object.keys(item)[0] ?? '';
      block(key.trim(), outline(item[key]), out);
    }
  }
  return out;
}

function block(key: string, steps: OutlineStep[], out: OutlineStep[]): void {
  const last = out.at(-1);
  if (key === 'else') {
    if (last?.type === 'if') last.else = steps;
    return;
  }
  const match = BLOCK.exec(key);
  if (!match) return;
  const [, cond, condition, loop, variable, iterable] = match;
  if (cond === 'elif') {
    if (last?.type === 'if') last.elif.push({ condition: condition!.trim(), then: steps });
  } else if (cond === 'if') {
    out.push({ type: 'if', condition: condition!.trim(), then: steps, elif: [], else: [] });
  } else if (cond === 'while') {
    out.push({ type: 'while', condition: condition!.trim(), steps });
  } else if (loop === 'for' || loop === 'fork') {
    out.push({ type: loop, variable: variable!, iterable: iterable!.trim(), steps });
  }
}

const OPERATORS: Record<string, string> = {
  $eq: '=',
  $ne: '≠',
  $gt: '>',
  $gte: '≥',
  $lt: '<',
  $lte: '≤',
  $in: 'is one of',
  $nin: 'is none of',
  $regex: 'matches the pattern',
};

function fieldWords(path: string, value: unknown): string[] {
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (keys.length && keys.every((k) => k.startsWith('$')))
      return keys
        .filter((k) => k !== '$options')
        .map((k) =>
          k === '$exists'
            ? `${path} ${value[k] ? 'is present' : 'is absent'}`
            : `${path} ${OPERATORS[k] ?? k} ${JSON.stringify(value[k])}`,
        );
    return keys.flatMap((k) => fieldWords(`${path}.${k}`, value[k]));
  }
  if (typeof value === 'string' && /\$\{/.test(value))
    return [`${path} matches the phrase ${JSON.stringify(value)}`];
  return [`${path} = ${JSON.stringify(value)}`];
}

/**
 * A hook's condition in words, for people.
 *
 * @example
 * conditionInWords({ type: 'CustomEvent', subtype: 'door' });
 * // 'when a CustomEvent arrives with subtype = "door"'
 * conditionInWords({ type: 'WebhookEvent', hook: 'door' }); // 'when /hook/door is called'
 */
export function conditionInWords(condition: Readonly<Record<string, unknown>>): string {
  const { type, ...rest } = condition;
  const fields: Record<string, unknown> = { ...rest };
  const kind = typeof type === 'string' ? type.trim().slice(type.trim().lastIndexOf('.') + 1) : '';
  let head = kind ? `when a${/^[AEIOU]/.test(kind) ? 'n' : ''} ${kind} arrives` : 'on every event';
  if (kind === 'WebhookEvent' && typeof fields.hook === 'string') {
    head = `when /hook/${fields.hook} is called`;
    delete fields.hook;
  }
  const words = Object.entries(fields).flatMap(([k, v]) => fieldWords(k, v));
  return words.length ? `${head} with ${words.join(' and ')}` : head;
}
