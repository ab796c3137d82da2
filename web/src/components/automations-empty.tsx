import { AppLink } from './app-link.tsx';

/**
 * What the Automations list shows when it has nothing: what an automation is and how to make one;
 * with filters set, that nothing matches them (and the way back).
 *
 * @example
 * <AutomationsEmpty filtered={false} onClear={() => replaceQuery('')} />
 */
export function AutomationsEmpty({
  filtered,
  onClear,
}: {
  filtered: boolean;
  onClear: () => void;
}) {
  if (filtered)
    return (
      <div class="card runs-empty" role="status">
        <h2>No automation matches these filters</h2>
        <button type="button" class="button button-secondary" onClick={onClear}>
          Clear filters
        </button>
      </div>
    );
  return (
    <div class="card runs-empty" role="status">
      <h2>No automations yet</h2>
      <p>
        An automation is a list of steps — actions with their arguments, conditions, loops — that
        Pipit runs for you: a <strong>procedure</strong> when it is called by name, an{' '}
        <strong>event hook</strong> when a matching event arrives, a <strong>web hook</strong> when
        something calls its address over HTTP, a <strong>cron</strong> on a schedule. They are
        written in YAML in the configuration (or as scripts), and every run shows up on the{' '}
        <AppLink href="/runs">Runs</AppLink> page.
      </p>
      <AppLink href="/automations/new" class="button button-primary">
        New automation
      </AppLink>
    </div>
  );
}
