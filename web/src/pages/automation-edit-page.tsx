import { useEffect, useMemo, useState } from 'preact/hooks';
import { AppLink } from '../components/app-link.tsx';
import { ErrorList } from '../components/error-list.tsx';
import { TemplatePicker } from '../components/template-picker.tsx';
import { YamlEditor } from '../components/yaml-editor.tsx';
import { messagesOf } from '../lib/api.ts';
import {
  automationHref,
  getAutomation,
  isConflict,
  lineErrors,
  checkAutomation,
  saveAutomation,
} from '../lib/automations.ts';
import type { LineError } from '../lib/automations.ts';
import { TEMPLATES } from '../lib/automation-templates.ts';
import { loadCatalog } from '../lib/catalog.ts';
import type { CatalogEntry } from '../lib/catalog.ts';
import { navigate, replaceQuery, useSearch } from '../lib/router.ts';

type Loaded =
  | { state: 'loading' }
  | { state: 'error'; errors: string[] }
  | { state: 'ready'; text: string; version: string | undefined };

const LABEL = 'Automation YAML';
// Long enough to check once per pause in typing, not once per key.
const CHECK_DELAY_MS = 600;

/**
 * The editor of one automation (`/automations/<name>/edit`), or of a new one from a template
 * (`/automations/new?template=cron`). Save sends the YAML to the server, which checks it: its
 * messages show at their lines and nothing is written; a change made meanwhile by someone else is
 * refused ("changed since you opened it") and the latest version can be loaded.
 *
 * @example
 * <AutomationEditPage name="event.hook.OnDoor" />
 */
export function AutomationEditPage({ name }: { name: string | null }) {
  const search = useSearch();
  const template = useMemo(
    () => TEMPLATES.find((t) => t.kind === new URLSearchParams(search).get('template')),
    [search],
  );
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<LineError[]>([]);
  const [conflict, setConflict] = useState(false);
  const [saving, setSaving] = useState(false);
  const [catalog, setCatalog] = useState<CatalogEntry[]>([]);

  useEffect(() => {
    loadCatalog()
      .then(setCatalog)
      // Completion is a help: without the catalog the editor still edits and saves.
      .catch(() => undefined);
  }, []);

  const load = (then?: () => void) => {
    if (name === null) return;
    getAutomation(name)
      .then((a) => {
        setLoaded({ state: 'ready', text: a.yaml, version: a.version });
        setText(a.yaml);
        then?.();
      })
      .catch((err: unknown) => setLoaded({ state: 'error', errors: messagesOf(err) }));
  };

  useEffect(() => {
    setErrors([]);
    setConflict(false);
    if (name !== null) load();
    else if (template) {
      setLoaded({ state: 'ready', text: template.yaml, version: undefined });
      setText(template.yaml);
    }
  }, [name, template]);

  // Pipit's own checks run as you type (after a pause), with each problem shown at its line.
  useEffect(() => {
    if (loaded.state !== 'ready' || text === loaded.text) return;
    let current = true;
    const timer = setTimeout(() => {
      checkAutomation(text, loaded.version)
        .then(() => current && setErrors([]))
        .catch((err: unknown) => {
          if (!current) return;
          if (isConflict(err)) setConflict(true);
          else setErrors(lineErrors(messagesOf(err)));
        });
    }, CHECK_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [text, loaded]);

  useEffect(() => {
    document.title = `${name ? `Edit ${name}` : 'New automation'} · Automations · Pipit`;
  }, [name]);

  const save = () => {
    if (loaded.state !== 'ready') return;
    setSaving(true);
    setConflict(false);
    saveAutomation(text, loaded.version)
      .then((r) => navigate(automationHref(r.name)))
      .catch((err: unknown) => {
        if (isConflict(err)) setConflict(true);
        else setErrors(lineErrors(messagesOf(err)));
      })
      .finally(() => setSaving(false));
  };

  const header = (
    <div class="page-header">
      <p class="small">
        {name ? (
          <AppLink href={automationHref(name)}>← {name}</AppLink>
        ) : (
          <AppLink href="/automations">← All automations</AppLink>
        )}
      </p>
      <h1>{name ? `Edit ${name}` : 'New automation'}</h1>
    </div>
  );

  if (name === null && !template)
    return (
      <>
        {header}
        <p class="muted">
          Start from a template: each one is a whole automation that runs as it is.
        </p>
        <TemplatePicker onPick={(t) => replaceQuery(`?template=${t.kind}`)} />
      </>
    );
  if (loaded.state === 'loading')
    return (
      <>
        {header}
        <p class="muted" role="status">
          Loading…
        </p>
      </>
    );
  if (loaded.state === 'error')
    return (
      <>
        {header}
        <ErrorList title="This automation could not be loaded" errors={loaded.errors} />
      </>
    );

  const general = errors.filter((e) => e.line === null);
  const atLines = errors.filter((e) => e.line !== null);
  return (
    <>
      {header}
      {conflict ? (
        <div class="alert alert-error" role="alert">
          <strong>This automation changed since you opened it.</strong>
          <p>
            Saving would overwrite that change, so nothing was saved. Load the latest version to
            edit it (your changes here are replaced), or copy them out first.
          </p>
          <div class="button-row">
            <button
              type="button"
              class="button button-secondary"
              onClick={() =>
                load(() => {
                  setConflict(false);
                  setErrors([]);
                })
              }
            >
              Load the latest version
            </button>
          </div>
        </div>
      ) : null}
      <form
        class="automation-editor"
        aria-label="Edit the automation"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <YamlEditor
          text={text}
          label={LABEL}
          errors={errors}
          catalog={catalog}
          onChange={(t) => {
            setText(t);
          }}
        />
        <p class="hint">
          Ctrl+Space completes action names after <code>action:</code> and their arguments under{' '}
          <code>args:</code>. Pipit checks the automation as you type, and saving writes nothing
          while it has errors.
        </p>
        {errors.length ? (
          <div class="alert alert-error" role="alert">
            <strong>Not saved: fix {errors.length === 1 ? 'this error' : 'these errors'}</strong>
            <ul class="editor-errors">
              {atLines.map((e, i) => (
                <li key={`l${i}`}>
                  Line {e.line}: {e.message}
                </li>
              ))}
              {general.map((e, i) => (
                <li key={`g${i}`}>{e.message}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <div class="button-row">
          <button type="submit" class="button button-primary" disabled={saving}>
            {saving ? 'Saving…' : 'Save'}
          </button>
          {name ? (
            <AppLink href={automationHref(name)} class="button button-secondary">
              Cancel
            </AppLink>
          ) : (
            <AppLink href="/automations/new" class="button button-secondary">
              Other templates
            </AppLink>
          )}
        </div>
      </form>
    </>
  );
}
