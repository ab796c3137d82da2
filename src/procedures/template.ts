/**
 * `${...}` templates inside JSON-like values. A template is parsed once from what the *user wrote*;
 * values that come out of the context are inserted as data and never scanned again, so an event
 * carrying the text `${...}` cannot inject an expression.
 */
import { PipitError } from '../core/errors.ts';
import { compileExpression } from './expression/expression.ts';
import type {
  CompiledExpression,
  ExpressionContext,
  EvaluateOptions,
} from './expression/expression.ts';
import { MAX_STRING_LENGTH, defineOwn, isPlainObject, toText } from './values.ts';

/** Deepest nesting of objects/arrays a template may have. */
export const MAX_TEMPLATE_DEPTH = 100;

/** A template compiled once, evaluated per run. */
export interface CompiledTemplate {
  /** True when the value holds no `${...}`: evaluate() returns it unchanged. */
  readonly constant: boolean;
  evaluate(context: ExpressionContext, options?: EvaluateOptions): unknown;
}

type Part = string | CompiledExpression;

function quoteText(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);
}

/** Index of the `}` closing the `${` whose body starts at `start`, skipping quoted strings. */
function closingBrace(text: string, start: number): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (quote !== null) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '{') depth++;
    else if (ch === '}') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

/**
 * Splits a string into literal text and compiled `${...}` expressions. No escape syntax exists: to
 * write a literal `${`, use `${'${'}`.
 *
 * @example
 * splitTemplate('Hi ${name}!'); // ['Hi ', <compiled name>, '!']
 */
export function splitTemplate(text: string): Part[] {
  const parts: Part[] = [];
  let from = 0;
  for (;;) {
    const open = text.indexOf('${', from);
    if (open < 0) break;
    const close = closingBrace(text, open + 2);
    if (close < 0) {
      throw new PipitError(
        'BAD_REQUEST',
        `template ${quoteText(text)}: '\${' without a closing '}'`,
      );
    }
    if (open > from) parts.push(text.slice(from, open));
    parts.push(compileExpression(text.slice(open + 2, close)));
    from = close + 1;
  }
  if (from < text.length) parts.push(text.slice(from));
  return parts;
}

function compileString(text: string): CompiledTemplate {
  const parts = splitTemplate(text);
  const only = parts[0];
  if (parts.length === 0 || (parts.length === 1 && typeof only === 'string')) {
    return { constant: true, evaluate: () => text };
  }
  if (parts.length === 1 && only !== undefined && typeof only !== 'string') {
    return { constant: false, evaluate: (context, options) => only.evaluate(context, options) };
  }
  return {
    constant: false,
    evaluate(context, options) {
      let out = '';
      for (const part of parts) {
        out += typeof part === 'string' ? part : toText(part.evaluate(context, options));
        if (out.length > MAX_STRING_LENGTH) {
          throw new PipitError(
            'INVALID_ARGUMENTS',
            `template ${quoteText(text)}: result longer than ${MAX_STRING_LENGTH} characters`,
          );
        }
      }
      return out;
    },
  };
}

function compileAt(value: unknown, depth: number): CompiledTemplate {
  if (depth > MAX_TEMPLATE_DEPTH) {
    throw new PipitError('BAD_REQUEST', `template nested deeper than ${MAX_TEMPLATE_DEPTH} levels`);
  }
  if (typeof value === 'string') return compileString(value);
  if (Array.isArray(value)) {
    const list: unknown[] = value;
    const items = list.map((item) => compileAt(item, depth + 1));
    if (items.every((item) => item.constant)) return { constant: true, evaluate: () => list };
    return {
      constant: false,
      evaluate: (context, options): unknown[] =>
        items.map((item) => item.evaluate(context, options)),
    };
  }
  if (isPlainObject(value)) {
    const entries = Object.keys(value).map(
      (key) => [key, compileAt(value[key], depth + 1)] as const,
    );
    if (entries.every(([, item]) => item.constant))
      return { constant: true, evaluate: () => value };
    return {
      constant: false,
      evaluate(context, options) {
        const out: Record<string, unknown> = {};
        // defineOwn: a user key named `__proto__` must stay a key, not swap the prototype.
        for (const [key, item] of entries) defineOwn(out, key, item.evaluate(context, options));
        return out;
      },
    };
  }
  return { constant: true, evaluate: () => value };
}

/**
 * Compiles every `${...}` in a JSON-like value (object keys are not templates). Syntax errors are
 * PipitError('BAD_REQUEST') thrown here, at load time.
 *
 * @example
 * const t = compileTemplate({ volume: '${volume}', msg: 'at ${volume}%' });
 * t.evaluate({ volume: 30 }); // { volume: 30, msg: 'at 30%' }
 */
export function compileTemplate(value: unknown): CompiledTemplate {
  return compileAt(value, 0);
}

/**
 * Resolves a template against a context in one go: a string that is exactly `${expr}` yields the
 * typed value, embedded `${...}` interpolate text (objects as JSON, `undefined` as nothing), and
 * anything else is returned unchanged. Values from the context are never expanded again.
 *
 * @example
 * resolveTemplate('${n + 1}', { n: 1 }); // 2
 * resolveTemplate('got ${data}', { data: '${evil}' }); // 'got ${evil}'
 */
export function resolveTemplate(
  value: unknown,
  context: ExpressionContext,
  options?: EvaluateOptions,
): unknown {
  return compileTemplate(value).evaluate(context, options);
}
