import { useEffect, useId, useState } from 'preact/hooks';
import { automationFiltersQuery, KINDS } from '../lib/automations.ts';
import type { AutomationFilters as Filters, AutomationKind } from '../lib/automations.ts';

/** How long typing pauses before the search applies. */
const TYPING_MS = 300;

/**
 * The list's filters: kind, failing (last run failed), disabled, and a search on names.
 *
 * @example
 * <AutomationFilters filters={filters} onChange={(f) => replaceQuery(automationFiltersQuery(f))} />
 */
export function AutomationFilters({
  filters,
  onChange,
}: {
  filters: Filters;
  onChange: (filters: Filters) => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState(filters.search ?? '');
  useEffect(() => setDraft(filters.search ?? ''), [filters.search]);
  useEffect(() => {
    if (draft.trim() === (filters.search ?? '')) return;
    const t = setTimeout(
      () => onChange({ ...filters, search: draft.trim() || undefined }),
      TYPING_MS,
    );
    return () => clearTimeout(t);
  }, [draft]);

  return (
    <form
      class="card run-filters"
      role="search"
      aria-label="Filter automations"
      onSubmit={(e) => {
        e.preventDefault();
        onChange({ ...filters, search: draft.trim() || undefined });
      }}
    >
      <div class="run-filter">
        <label for={`${id}-kind`}>Kind</label>
        <select
          id={`${id}-kind`}
          value={filters.kind ?? ''}
          onChange={(e) =>
            onChange({ ...filters, kind: (e.currentTarget.value || undefined) as AutomationKind })
          }
        >
          <option value="">All kinds</option>
          {KINDS.map((k) => (
            <option key={k.value} value={k.value}>
              {k.label}
            </option>
          ))}
        </select>
      </div>
      <div class="run-filter run-filter-search">
        <label for={`${id}-search`}>Search</label>
        <input
          id={`${id}-search`}
          type="search"
          value={draft}
          placeholder="a name, an action…"
          autocomplete="off"
          spellcheck={false}
          onInput={(e) => setDraft(e.currentTarget.value)}
        />
      </div>
      <label class="check run-filter-failed">
        <input
          type="checkbox"
          checked={filters.failing ?? false}
          onChange={(e) => onChange({ ...filters, failing: e.currentTarget.checked || undefined })}
        />
        Failing
      </label>
      <label class="check">
        <input
          type="checkbox"
          checked={filters.disabled ?? false}
          onChange={(e) => onChange({ ...filters, disabled: e.currentTarget.checked || undefined })}
        />
        Disabled
      </label>
      {automationFiltersQuery(filters) ? (
        <button
          type="button"
          class="button button-ghost button-small"
          onClick={() => {
            setDraft('');
            onChange({});
          }}
        >
          Clear filters
        </button>
      ) : null}
    </form>
  );
}
