import { api, ApiError } from './api.ts';
import type { ResponseMessage } from './api.ts';

// The shapes the server answers, from its own definitions (type-only: nothing is bundled).
import type {
  AutomationKind,
  AutomationRun,
  AutomationSummary,
  DeleteOutput,
  EnableOutput,
  GetOutput,
  ListOutput,
  OutlineStep,
  SaveOutput,
  TestOutput,
  TestStep,
} from '../../../src/plugins/automations/wire.ts';

export type {
  AutomationKind,
  AutomationRun,
  AutomationSummary,
  GetOutput,
  OutlineStep,
  SaveOutput,
  TestOutput,
  TestStep,
};

/** The kinds in the order the page lists and filters them, with the words it uses for them. */
export const KINDS: readonly { value: AutomationKind; label: string; prefix: string }[] = [
  { value: 'procedure', label: 'Procedure', prefix: 'procedure.' },
  { value: 'event_hook', label: 'Event hook', prefix: 'event.hook.' },
  { value: 'web_hook', label: 'Web hook', prefix: 'event.hook.' },
  { value: 'cron', label: 'Cron', prefix: 'cron.' },
];

/** The word for a kind (`Web hook`). */
export function kindLabel(kind: AutomationKind): string {
  return KINDS.find((k) => k.value === kind)?.label ?? kind;
}

/** An automation's name without its kind's prefix (`procedure.morning` → `morning`). */
export function shortName(name: string): string {
  return name.replace(/^(procedure|event\.hook|cron)\./, '');
}

/** What the list filters on; each is a query parameter of its address. */
export interface AutomationFilters {
  kind?: AutomationKind | undefined;
  search?: string | undefined;
  failing?: boolean | undefined;
  disabled?: boolean | undefined;
}

/**
 * The filters in an address's query; unknown keys and values are ignored.
 *
 * @example
 * parseAutomationFilters('?kind=cron&failing=1'); // {kind: 'cron', failing: true}
 */
export function parseAutomationFilters(search: string): AutomationFilters {
  const params = new URLSearchParams(search);
  const filters: AutomationFilters = {};
  const kind = params.get('kind');
  if (KINDS.some((k) => k.value === kind)) filters.kind = kind as AutomationKind;
  const text = params.get('search')?.trim();
  if (text) filters.search = text;
  if (params.get('failing') === '1') filters.failing = true;
  if (params.get('disabled') === '1') filters.disabled = true;
  return filters;
}

/** The query that holds these filters (`?kind=cron`), or '' when there are none. */
export function automationFiltersQuery(filters: AutomationFilters): string {
  const params = new URLSearchParams();
  if (filters.kind) params.set('kind', filters.kind);
  if (filters.search?.trim()) params.set('search', filters.search.trim());
  if (filters.failing) params.set('failing', '1');
  if (filters.disabled) params.set('disabled', '1');
  const text = params.toString();
  return text ? `?${text}` : '';
}

async function runAction<T>(action: string, args: Record<string, unknown>): Promise<T> {
  const res = await api<ResponseMessage>('POST', '/execute', { type: 'request', action, args });
  const errors = res.response?.errors ?? [];
  // An action's failure may come as an HTTP 200 with errors: shown like any other API error.
  if (errors.length) throw new ApiError(200, errors);
  return res.response?.output as T;
}

/** The automations that match the filters, sorted by name. */
export async function listAutomations(filters: AutomationFilters): Promise<AutomationSummary[]> {
  const args: Record<string, unknown> = {};
  if (filters.kind) args.kind = filters.kind;
  if (filters.search) args.search = filters.search;
  if (filters.failing) args.failing = true;
  if (filters.disabled) args.disabled = true;
  return (await runAction<ListOutput>('automations.list', args)).automations;
}

/** One automation with its YAML (or script), steps and recent runs. */
export function getAutomation(name: string): Promise<GetOutput> {
  return runAction('automations.get', { name });
}

/** Creates or replaces a YAML automation; `version` guards against overwriting someone's change. */
export function saveAutomation(yaml: string, version?: string): Promise<SaveOutput> {
  return runAction('automations.save', version ? { yaml, version } : { yaml });
}

/**
 * Checks an automation as saving would, writing nothing: resolves with its warnings, or rejects
 * with the problems (`line N: ...`), as {@link saveAutomation} does.
 */
export function checkAutomation(yaml: string, version?: string): Promise<SaveOutput> {
  return runAction('automations.save', { yaml, check: true, ...(version ? { version } : {}) });
}

/** Removes a YAML automation from its file. */
export function deleteAutomation(name: string, version: string): Promise<DeleteOutput> {
  return runAction('automations.delete', { name, version });
}

/** Switches a hook or cron on or off (kept across restarts). */
export function setAutomationEnabled(name: string, enabled: boolean): Promise<EnableOutput> {
  return runAction(enabled ? 'automations.enable' : 'automations.disable', { name });
}

/** Runs an automation now (or, with `dry_run`, lists the steps it would run). */
export function testAutomation(
  name: string,
  opts: { dry_run?: boolean; args?: Record<string, unknown>; event?: unknown } = {},
): Promise<TestOutput> {
  return runAction('automations.test', { name, ...opts });
}

/**
 * True when a save failed because the automation changed since it was loaded. Not every CONFLICT
 * is that: a new automation named like an existing one is one too, and is shown as it is.
 */
export function isConflict(err: unknown): boolean {
  return err instanceof ApiError && err.errors.some((e) => /changed since you opened it/i.test(e));
}

/** A validation message tied to a line of the YAML (`line 4: unknown action "utils.ecko"`). */
export interface LineError {
  line: number | null;
  message: string;
}

/**
 * Splits the server's messages into those that name a line and the others.
 *
 * @example
 * lineErrors(['line 3: unknown action "utils.ecko"']); // [{line: 3, message: 'unknown action "utils.ecko"'}]
 */
export function lineErrors(messages: readonly string[]): LineError[] {
  // The server sends every problem in one message, a line each.
  const all = messages.flatMap((m) => m.split('\n')).filter((m) => m.trim());
  return all.map((m) => {
    const match = /(?:^|\s|:)line (\d+)(?::\d+)?[:,]?\s*(.*)$/i.exec(m);
    return match ? { line: Number(match[1]), message: match[2] || m } : { line: null, message: m };
  });
}

/**
 * The address of an automation's page (`/automations/cron.Nightly/`), and of its editor
 * (`…/edit`). The page's address ends with a slash: names hold dots, and the server takes a last
 * segment such as `cron.Nightly` for a file (`.Nightly`), answering a reload with a 404.
 */
export function automationHref(name: string, edit = false): string {
  return `/automations/${encodeURIComponent(name)}/${edit ? 'edit' : ''}`;
}

/** The Runs page filtered on an automation's runs. */
export function automationRunsHref(a: Pick<AutomationSummary, 'name' | 'kind'>): string {
  const key = a.kind === 'cron' ? 'cron' : a.kind === 'procedure' ? 'action' : 'hook';
  // Runs name hooks and crons without their prefix (`?cron=Nightly`), procedures with it.
  const value = a.kind === 'procedure' ? a.name : shortName(a.name);
  return `/runs?${new URLSearchParams({ [key]: value }).toString()}`;
}
