import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { hasFilters, ORIGINS } from '../lib/runs.ts';
import type { RunFilters as Filters } from '../lib/runs.ts';

/** How long typing pauses before the search applies (each search is a new query). */
const TYPING_MS = 350;

interface RunFiltersProps {
  filters: Filters;
  onChange: (filters: Filters) => void;
}

// Filters set by links rather than by a control here (an event's runs, a cron's runs): shown as
// removable chips so that a filtered view always says what it is filtered on.
const CHIPS = [
  { key: 'hook', label: 'Hook' },
  { key: 'cron', label: 'Cron' },
  { key: 'event_id', label: 'Event' },
] as const;

/**
 * The Runs filters: failed only, transport, an action name (exact) or free text, and chips for the
 * hook, cron or event a link filtered on. Every change goes to `onChange` (and so to the address).
 *
 * @example
 * <RunFilters filters={filters} onChange={(f) => replaceQuery(runFiltersQuery(f))} />
 */
export function RunFilters({ filters, onChange }: RunFiltersProps) {
  const id = useId();
  const applied = filters.action ?? filters.text ?? '';
  const [draft, setDraft] = useState(applied);
  const [exact, setExact] = useState(filters.action !== undefined);
  // What this form last applied: a different value comes from elsewhere (a link, Back, "Clear").
  const committed = useRef({ applied, exact });
  // The filters as they are now, for a search applied after a pause (others may have changed).
  const latest = useRef({ filters, onChange, exact });
  latest.current = { filters, onChange, exact };

  useEffect(() => {
    const nowExact = filters.action !== undefined;
    if (applied === committed.current.applied && nowExact === committed.current.exact) return;
    committed.current = { applied, exact: nowExact };
    setDraft(applied);
    if (applied) setExact(nowExact);
  }, [applied, filters.action]);

  const apply = (text: string, isExact: boolean) => {
    const value = text.trim();
    committed.current = { applied: value, exact: isExact && value !== '' };
    latest.current.onChange({
      ...latest.current.filters,
      action: isExact && value ? value : undefined,
      text: !isExact && value ? value : undefined,
    });
  };

  // Typing applies once it pauses.
  useEffect(() => {
    if (draft.trim() === applied) return;
    const timer = setTimeout(() => apply(draft, latest.current.exact), TYPING_MS);
    return () => clearTimeout(timer);
    // Only the text typed starts the wait; the rest is read when it ends.
  }, [draft]);

  return (
    <form
      class="card run-filters"
      aria-label="Filter runs"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        apply(draft, exact);
      }}
    >
      <label class="check run-filter-failed">
        <input
          type="checkbox"
          checked={filters.outcome === 'failed'}
          onChange={(e) =>
            onChange({ ...filters, outcome: e.currentTarget.checked ? 'failed' : undefined })
          }
        />
        Failed only
      </label>
      <div class="run-filter">
        <label for={`${id}-transport`}>Transport</label>
        <select
          id={`${id}-transport`}
          value={filters.transport ?? ''}
          onChange={(e) => onChange({ ...filters, transport: e.currentTarget.value || undefined })}
        >
          <option value="">All transports</option>
          {ORIGINS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
          {filters.transport && !ORIGINS.some((o) => o.value === filters.transport) ? (
            <option value={filters.transport}>{filters.transport}</option>
          ) : null}
        </select>
      </div>
      <div class="run-filter run-filter-search">
        <label for={`${id}-search`}>{exact ? 'Name' : 'Action, name or text'}</label>
        <input
          id={`${id}-search`}
          type="search"
          value={draft}
          placeholder={exact ? 'utils.echo' : 'a name, an argument, an error…'}
          autocomplete="off"
          spellcheck={false}
          onInput={(e) => setDraft(e.currentTarget.value)}
        />
      </div>
      <label class="check">
        <input
          type="checkbox"
          checked={exact}
          onChange={(e) => {
            const next = e.currentTarget.checked;
            setExact(next);
            if (draft.trim()) apply(draft, next);
          }}
        />
        Exact name
      </label>
      {hasFilters(filters) ? (
        <div class="run-filter-chips">
          {CHIPS.map((c) =>
            filters[c.key] ? (
              <button
                key={c.key}
                type="button"
                class="chip"
                title={`Remove the filter ${c.label.toLowerCase()} = ${filters[c.key]}`}
                onClick={() => onChange({ ...filters, [c.key]: undefined })}
              >
                {c.label}: <code>{filters[c.key]}</code>
                <span aria-hidden="true"> ✕</span>
              </button>
            ) : null,
          )}
          <button
            type="button"
            class="button button-ghost button-small"
            onClick={() => {
              committed.current = { applied: '', exact: false };
              setDraft('');
              onChange({});
            }}
          >
            Clear filters
          </button>
        </div>
      ) : null}
    </form>
  );
}
