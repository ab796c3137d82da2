import { kindLabel } from '../lib/automations.ts';
import { TEMPLATES } from '../lib/automation-templates.ts';
import type { AutomationTemplate } from '../lib/automation-templates.ts';

/**
 * The starting points of a new automation, one per kind.
 *
 * @example
 * <TemplatePicker onPick={(t) => setText(t.yaml)} />
 */
export function TemplatePicker({ onPick }: { onPick: (template: AutomationTemplate) => void }) {
  return (
    <ul class="template-list" aria-label="Templates">
      {TEMPLATES.map((t) => (
        <li key={t.kind} class="card template-card">
          <span class={`badge badge-kind badge-kind-${t.kind}`}>{kindLabel(t.kind)}</span>
          <h2>{t.title}</h2>
          <p class="muted">{t.summary}</p>
          <button
            type="button"
            class="button button-secondary"
            aria-label={`Start from the ${t.title.toLowerCase()} template`}
            onClick={() => onPick(t)}
          >
            Use this template
          </button>
        </li>
      ))}
    </ul>
  );
}
