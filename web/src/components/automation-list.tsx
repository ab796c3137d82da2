import { automationHref, kindLabel } from '../lib/automations.ts';
import type { AutomationSummary } from '../lib/automations.ts';
import { AppLink } from './app-link.tsx';
import { AutomationFacts } from './automation-facts.tsx';
import { EnabledSwitch } from './enabled-switch.tsx';

/**
 * Every automation as a card: kind, name (to its page), the on/off switch of hooks and crons, and
 * the facts of its kind. Cards stack the same way on a phone.
 *
 * @example
 * <AutomationList automations={list} onChanged={reload} />
 */
export function AutomationList({
  automations,
  onChanged,
}: {
  automations: AutomationSummary[];
  onChanged: () => void;
}) {
  return (
    <ul class="automation-list" aria-label="Automations">
      {automations.map((a) => (
        <li
          key={a.name}
          class={`card automation-card${a.enabled ? '' : ' automation-disabled'}${
            a.last_run?.outcome === 'failed' ? ' automation-failing' : ''
          }`}
        >
          <div class="automation-head">
            <span class={`badge badge-kind badge-kind-${a.kind}`}>{kindLabel(a.kind)}</span>
            <AppLink href={automationHref(a.name)} class="automation-name">
              {a.name}
            </AppLink>
            {a.source.type === 'script' ? <span class="badge">script</span> : null}
            <EnabledSwitch automation={a} onChanged={onChanged} />
          </div>
          <AutomationFacts automation={a} />
        </li>
      ))}
    </ul>
  );
}
