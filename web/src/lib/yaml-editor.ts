/**
 * The automation editor: CodeMirror 6 with YAML highlighting, completion of action names and of
 * each action's arguments from the catalog, and the server's validation messages as diagnostics at
 * their lines. Only the Automations editor imports this module, lazily (`import()`), so that no
 * other page downloads CodeMirror.
 */
import { autocompletion } from '@codemirror/autocomplete';
import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { yaml } from '@codemirror/lang-yaml';
import { lintGutter, setDiagnostics } from '@codemirror/lint';
import type { Diagnostic } from '@codemirror/lint';
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView, basicSetup } from 'codemirror';
import type { LineError } from './automations.ts';
import type { CatalogEntry } from './catalog.ts';
import { yamlSpot } from './yaml-spot.ts';

/** What the page holds of a mounted editor. */
export interface YamlEditorHandle {
  /** The text as it is now. */
  text(): string;
  /** Replaces the whole text (e.g. the latest version after a conflict). */
  setText(text: string): void;
  /** Shows these messages at their lines (those without a line at the first one). */
  showErrors(errors: readonly LineError[]): void;
  /** Gives the editor the catalog once it has loaded. */
  setCatalog(catalog: readonly CatalogEntry[]): void;
  destroy(): void;
}

/** How the editor is set up. */
export interface YamlEditorOptions {
  text: string;
  label: string;
  readOnly?: boolean;
  catalog?: readonly CatalogEntry[];
  onChange?: (text: string) => void;
}

const theme = EditorView.theme({
  '&': {
    fontSize: '0.88rem',
    border: '1px solid var(--border-strong)',
    borderRadius: 'var(--radius-small)',
    background: 'var(--surface)',
  },
  '&.cm-focused': { outline: '2px solid var(--accent)', outlineOffset: '1px' },
  '.cm-scroller': {
    fontFamily: 'var(--mono)',
    minHeight: '16rem',
    maxHeight: '70vh',
    overflow: 'auto',
  },
  '.cm-gutters': { background: 'var(--surface-2)', borderRight: '1px solid var(--border)' },
  '.cm-tooltip-autocomplete ul li[aria-selected]': { background: 'var(--accent)' },
  '.cm-diagnostic-error': { borderLeftColor: 'var(--error)' },
});

function actionCompletions(catalog: readonly CatalogEntry[]): Completion[] {
  return catalog.map((e) => ({
    label: e.name,
    type: e.kind === 'procedure' ? 'function' : 'method',
    detail: e.kind === 'procedure' ? 'procedure' : undefined,
    info: e.summary || undefined,
  }));
}

/** Completes action names after `action:` and argument names inside that action's `args:`. */
function completionSource(catalog: { current: readonly CatalogEntry[] }) {
  return (ctx: CompletionContext): CompletionResult | null => {
    const spot = yamlSpot(ctx.state.doc.toString(), ctx.pos);
    if (!spot) return null;
    if (spot.kind === 'action') {
      if (!spot.prefix && !ctx.explicit && !/:\s$/.test(ctx.state.sliceDoc(ctx.pos - 2, ctx.pos)))
        return null;
      return { from: spot.from, options: actionCompletions(catalog.current), validFor: /^[\w.]*$/ };
    }
    const entry = catalog.current.find((e) => e.name === spot.action);
    if (!entry) return null;
    if (!spot.prefix && !ctx.explicit) return null;
    const options = entry.form.fields
      .filter((f) => !spot.used.includes(f.name))
      .map((f): Completion => ({
        label: f.name,
        apply: `${f.name}: `,
        type: 'property',
        detail: `${f.typeLabel}${f.required ? ' · required' : ''}`,
        info: f.description,
        boost: f.required ? 1 : 0,
      }));
    return options.length ? { from: spot.from, options, validFor: /^[\w-]*$/ } : null;
  };
}

function diagnostics(view: EditorView, errors: readonly LineError[]): Diagnostic[] {
  const doc = view.state.doc;
  return errors.map((e) => {
    const line = doc.line(Math.min(Math.max(e.line ?? 1, 1), doc.lines));
    const start = line.from + (line.text.length - line.text.trimStart().length);
    return {
      from: start,
      to: Math.max(line.to, start),
      severity: 'error',
      source: 'Pipit',
      message: e.line === null ? e.message : `Line ${e.line}: ${e.message}`,
    };
  });
}

/**
 * Mounts an editor in `host`. CodeMirror styles itself with a style sheet it writes at run time;
 * the page's Content-Security-Policy (`style-src 'self'`) refuses `<style>` elements, so the editor
 * lives in a shadow root, where it uses a constructed style sheet (`adoptedStyleSheets`) instead.
 *
 * @example
 * const editor = mountYamlEditor(div, { text: 'cron.X: …', label: 'Automation YAML' });
 * editor.showErrors([{ line: 3, message: 'unknown action "utils.ecko"' }]);
 */
export function mountYamlEditor(host: HTMLElement, opts: YamlEditorOptions): YamlEditorHandle {
  const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  shadow.replaceChildren();
  const parent = document.createElement('div');
  shadow.append(parent);
  const catalog = { current: opts.catalog ?? [] };
  const editable = new Compartment();
  const view = new EditorView({
    parent,
    root: shadow,
    state: EditorState.create({
      doc: opts.text,
      extensions: [
        basicSetup,
        yaml(),
        lintGutter(),
        autocompletion({ override: [completionSource(catalog)], activateOnTyping: true }),
        theme,
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ 'aria-label': opts.label }),
        editable.of([EditorState.readOnly.of(opts.readOnly ?? false)]),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) opts.onChange?.(u.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    text: () => view.state.doc.toString(),
    setText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    showErrors(errors) {
      view.dispatch(setDiagnostics(view.state, diagnostics(view, errors)));
    },
    setCatalog(entries) {
      catalog.current = entries;
    },
    destroy() {
      view.destroy();
      shadow.replaceChildren();
    },
  };
}
