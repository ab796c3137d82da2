import { isMap, isScalar, isSeq } from 'yaml';
import type { Node, YAMLMap } from 'yaml';
import type { z } from 'zod';
import { isPipitError, PipitError, toPipitError } from '../../core/errors.ts';
import type { Services } from '../../core/services.ts';
import { cronFromConfig } from '../../cron/from-config.ts';
import { Scheduler } from '../../cron/scheduler.ts';
import { hookFromConfig } from '../../events/from-config.ts';
import { procedureFromConfig } from '../../procedures/from-config.ts';
import { isPlainObject } from '../../procedures/values.ts';
import { errorAt, invalidAt, lineOf, stepListNode } from './lines.ts';
import type { LineError, Submitted } from './lines.ts';

// Loader errors come one per line; each is placed at its line of the submitted text.
function placed(s: Submitted, err: unknown, file: string): LineError[] {
  const message = toPipitError(err, 'CONFIG_INVALID').message;
  return message
    .split('\n')
    .filter((m) => m.trim())
    .map((m) => errorAt(s, m, file));
}

// The section alone, compiled as the loader compiles it (steps, expressions, condition and its
// event kind, the cron expression).
function compileAlone(s: Submitted, file: string, services: Services): LineError[] {
  const section = { key: s.key, value: s.value, source: file };
  const get = () => services;
  try {
    if (s.key.startsWith('procedure.')) procedureFromConfig(section, get);
    else if (s.key.startsWith('event.hook.')) hookFromConfig(section, get);
    else Scheduler.validate(cronFromConfig(section, get));
    return [];
  } catch (err) {
    if (!isPipitError(err)) throw err;
    return placed(s, err, file);
  }
}

const hasExpression = (value: unknown) => JSON.stringify(value)?.includes('${') ?? false;

function argNode(args: Node | null, key: PropertyKey | undefined): Node | null {
  if (!isMap(args) || key === undefined) return args;
  const pair = args.items.find((p) => isScalar(p.key) && String(p.key.value) === String(key));
  return (pair?.value as Node | null | undefined) ?? args;
}

// Arguments written as values (no `${}`) are checked against the action's parameters, as the
// call would check them: a wrong type fails now rather than at the first run.
function checkStep(s: Submitted, item: YAMLMap, at: string, services: Services): LineError[] {
  const action = item.get('action');
  if (typeof action !== 'string') return [];
  let resolved;
  try {
    resolved = services.registry.resolve(action);
  } catch {
    return []; // an unknown action is the loader's to report (with its "did you mean")
  }
  if (resolved.kind !== 'action') return [];
  const compiled = resolved.action;
  const argsNode = (item.get('args', true) as Node | undefined) ?? null;
  const args: unknown = argsNode ? argsNode.toJS(s.doc) : {};
  if (!isPlainObject(args)) return [];
  const stepLine = lineOf(s.counter, item) ?? 1;
  const issueAt = (issue: z.core.$ZodIssue, key?: string): LineError => {
    const path = key === undefined ? issue.path : [key, ...issue.path];
    return {
      line: lineOf(s.counter, argNode(argsNode, path[0])) ?? stepLine,
      message: `${at}: ${action}: ${path.length ? `"${path.map(String).join('.')}" ` : ''}${issue.message}`,
    };
  };
  if (!hasExpression(args)) {
    const result = compiled.schema.safeParse(args);
    return result.success ? [] : result.error.issues.map((i) => issueAt(i));
  }
  const errors: LineError[] = [];
  for (const [key, value] of Object.entries(args)) {
    if (hasExpression(value)) continue;
    const schema = compiled.params[key];
    if (!schema) {
      if (!compiled.extraArgs)
        errors.push({
          line: lineOf(s.counter, argNode(argsNode, key)) ?? stepLine,
          message: `${at}: ${action}: unknown argument "${key}" (known: ${Object.keys(compiled.params).join(', ') || 'none'})`,
        });
      continue;
    }
    const result = schema.safeParse(value);
    if (!result.success) errors.push(...result.error.issues.map((i) => issueAt(i, key)));
  }
  return errors;
}

function checkArgs(s: Submitted, list: Node | null, path: string, services: Services) {
  const items = isSeq(list) ? list.items : isMap(list) ? [list] : [];
  const errors: LineError[] = [];
  items.forEach((item, index) => {
    const at = `${path} step ${index + 1}`;
    if (!isMap(item)) return;
    if (item.has('action')) errors.push(...checkStep(s, item, at, services));
    else if (item.items.length === 1 && !item.has('set') && !item.has('return')) {
      const body = (item.items[0]!.value as Node | null) ?? null;
      const block = isScalar(item.items[0]!.key) ? String(item.items[0]!.key.value).trim() : '';
      errors.push(...checkArgs(s, body, `${at} > ${block.split(/\s/)[0]}`, services));
    }
  });
  return errors;
}

/**
 * Checks a submitted automation as the start-up loader would, before anything is written: the
 * section alone (steps, `${}` expressions, the condition's event kind, the cron expression), the
 * arguments written as values against each action's parameters, then the whole configuration
 * with `newText` as the text of `file` (names unique across files and scripts, every action
 * called exists). INVALID_ARGUMENTS with each problem at its line; the warnings otherwise.
 *
 * @example
 * const warnings = await validateSubmitted(s, services, '/etc/pipit/automations.yaml', text);
 */
export async function validateSubmitted(
  s: Submitted,
  services: Services,
  file: string,
  newText: string,
): Promise<string[]> {
  const alone = compileAlone(s, file, services);
  if (alone.length) throw invalidAt(alone);
  const args = checkArgs(s, stepListNode(s), s.key, services);
  if (args.length) throw invalidAt(args);
  const port = services.userConfig;
  if (!port) throw new PipitError('UNAVAILABLE', 'automations: no configuration is loaded');
  try {
    return await port.check(new Map([[file, newText]]));
  } catch (err) {
    if (!isPipitError(err) || err.code === 'INTERNAL') throw err;
    throw invalidAt(placed(s, err, file));
  }
}
