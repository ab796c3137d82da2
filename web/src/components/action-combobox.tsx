import type { ComponentChildren } from 'preact';
import { useEffect, useId, useMemo, useState } from 'preact/hooks';
import type { CatalogEntry } from '../lib/catalog.ts';
import { fuzzyFilter } from '../lib/fuzzy.ts';

interface ActionComboboxProps {
  entries: CatalogEntry[];
  value: string;
  onInput: (text: string) => void;
  onSelect: (entry: CatalogEntry) => void;
  loading?: boolean;
}

/** Renders a name with the fuzzy-matched characters marked. */
function Highlighted({ text, positions }: { text: string; positions: number[] }) {
  const marks = new Set(positions);
  const parts: ComponentChildren[] = [];
  let run = '';
  let inMark = false;
  const flush = (key: number) => {
    if (run) parts.push(inMark ? <mark key={key}>{run}</mark> : run);
    run = '';
  };
  for (let i = 0; i < text.length; i++) {
    if (marks.has(i) !== inMark) {
      flush(i);
      inMark = !inMark;
    }
    run += text[i];
  }
  flush(text.length);
  return <>{parts}</>;
}

/**
 * The action field: an ARIA 1.2 combobox (list autocomplete) over every action and procedure.
 * Focus stays in the input; arrows move the active option (aria-activedescendant), Enter picks
 * it, Escape closes the list (or clears the field when it is already closed).
 */
export function ActionCombobox({
  entries,
  value,
  onInput,
  onSelect,
  loading,
}: ActionComboboxProps) {
  const id = useId();
  const listId = `${id}-list`;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const matches = useMemo(() => fuzzyFilter(value, entries, (e) => e.name, 50), [value, entries]);
  const expanded = open && matches.length > 0;
  const optionId = (i: number) => `${id}-opt-${i}`;

  useEffect(() => {
    if (expanded && active >= 0)
      document.getElementById(optionId(active))?.scrollIntoView({ block: 'nearest' });
  }, [active, expanded]);

  const choose = (entry: CatalogEntry) => {
    onInput(entry.name);
    onSelect(entry);
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault();
        if (!open) setOpen(true);
        setActive((a) => (matches.length ? (a + 1) % matches.length : -1));
        break;
      case 'ArrowUp':
        e.preventDefault();
        if (!open) setOpen(true);
        setActive((a) => (matches.length ? (a <= 0 ? matches.length - 1 : a - 1) : -1));
        break;
      case 'Enter':
        if (expanded) {
          e.preventDefault();
          const pick = matches[active >= 0 ? active : 0];
          if (pick) choose(pick.item);
        }
        break;
      case 'Escape':
        if (expanded) setOpen(false);
        else onInput('');
        setActive(-1);
        break;
      case 'Tab':
        setOpen(false);
        break;
    }
  };

  return (
    <div class="combobox">
      <label for={id} class="label">
        Action
      </label>
      <input
        id={id}
        type="text"
        role="combobox"
        class="combobox-input"
        value={value}
        placeholder={
          loading ? 'Loading actions…' : 'Search actions and procedures, e.g. “utils sleep”'
        }
        autoComplete="off"
        autoCapitalize="off"
        spellcheck={false}
        disabled={loading}
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        onInput={(e) => {
          onInput(e.currentTarget.value);
          setOpen(true);
          setActive(e.currentTarget.value ? 0 : -1);
        }}
        onFocus={() => setOpen(true)}
        onClick={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Actions and procedures"
        class="listbox"
        hidden={!expanded}
      >
        {matches.map((m, i) => (
          <li
            key={m.item.name}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            class="option"
            // Keep focus in the input so the blur does not close the list before the click lands.
            onMouseDown={(e) => e.preventDefault()}
            onMouseMove={() => setActive(i)}
            onClick={() => choose(m.item)}
          >
            <span class="option-name">
              <Highlighted text={m.item.name} positions={m.positions} />
            </span>
            {m.item.kind === 'procedure' ? <span class="badge">procedure</span> : null}
            <span class="option-summary">{m.item.summary}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
