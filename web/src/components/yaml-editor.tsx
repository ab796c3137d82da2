import { useEffect, useRef, useState } from 'preact/hooks';
import type { LineError } from '../lib/automations.ts';
import type { CatalogEntry } from '../lib/catalog.ts';
import type { YamlEditorHandle } from '../lib/yaml-editor.ts';

interface YamlEditorProps {
  /** The text to start from; a new value (another automation, the latest version) replaces it. */
  text: string;
  label: string;
  errors: readonly LineError[];
  catalog: readonly CatalogEntry[];
  onChange: (text: string) => void;
}

/**
 * The YAML editor of an automation. CodeMirror is fetched on first use (a separate chunk), so the
 * other pages never download it; until it is in, a read-only copy of the text shows.
 *
 * @example
 * <YamlEditor text={yaml} label="Automation YAML" errors={errors} catalog={catalog} onChange={setYaml} />
 */
export function YamlEditor({ text, label, errors, catalog, onChange }: YamlEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<YamlEditorHandle | null>(null);
  const latest = useRef({ onChange, errors, catalog, text });
  latest.current = { onChange, errors, catalog, text };
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');

  useEffect(() => {
    let gone = false;
    import('../lib/yaml-editor.ts')
      .then(({ mountYamlEditor }) => {
        if (gone || !host.current) return;
        editor.current = mountYamlEditor(host.current, {
          text: latest.current.text,
          label,
          catalog: latest.current.catalog,
          onChange: (t) => latest.current.onChange(t),
        });
        editor.current.showErrors(latest.current.errors);
        setState('ready');
      })
      .catch(() => {
        if (!gone) setState('failed');
      });
    return () => {
      gone = true;
      editor.current?.destroy();
      editor.current = null;
    };
  }, [label]);

  useEffect(() => {
    const e = editor.current;
    if (e && e.text() !== text) e.setText(text);
  }, [text]);

  useEffect(() => editor.current?.showErrors(errors), [errors, state]);
  useEffect(() => editor.current?.setCatalog(catalog), [catalog, state]);

  return (
    <div class="yaml-editor">
      <div ref={host} class="yaml-editor-host" />
      {state === 'loading' ? (
        <pre class="code yaml-editor-fallback" aria-busy="true">
          {text}
        </pre>
      ) : null}
      {state === 'failed' ? (
        <textarea
          class="code yaml-editor-fallback"
          aria-label={label}
          rows={18}
          spellcheck={false}
          value={text}
          onInput={(e) => onChange(e.currentTarget.value)}
        />
      ) : null}
    </div>
  );
}
