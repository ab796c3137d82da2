/**
 * The outputs of the `automations.*` actions, one zod schema each with its derived type: what the
 * HTTP API returns and what the web UI's Automations page reads (`import type`). Field names are
 * stable: add fields, never rename them.
 */
import { z } from 'zod';

/** The four kinds of automation. */
export const AutomationKind = z
  .enum(['procedure', 'event_hook', 'web_hook', 'cron'])
  .describe(
    'procedure (procedure.<name>), event hook (event.hook.<Name>), web hook (an event hook on WebhookEvent, called at /hook/<name>), cron (cron.<Name>)',
  );
export type AutomationKind = z.output<typeof AutomationKind>;

/** Where an automation is defined: a YAML file (editable) or a script (read-only). */
export const AutomationSource = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('yaml').describe('defined in a YAML configuration file'),
      file: z.string().describe('absolute path of the YAML file that defines it'),
      line: z.number().int().describe('1-based line of its key in that file'),
    }),
    z.object({
      type: z.literal('script').describe('defined by a script of scripts_dir'),
      file: z.string().describe('absolute path of the script'),
    }),
  ])
  .describe('where the automation is defined');
export type AutomationSource = z.output<typeof AutomationSource>;

/** The latest recorded run of an automation. */
export const AutomationRun = z
  .object({
    id: z.string().describe('the run id (runs.get {id})'),
    outcome: z.enum(['ok', 'failed']).describe('how the run ended'),
    started_at: z.string().describe('when it started, ISO 8601 (UTC)'),
    error: z.string().optional().describe('the first error of a failed run'),
  })
  .describe('a recorded run');
export type AutomationRun = z.output<typeof AutomationRun>;

/** A procedure's declared parameter. */
export const AutomationParam = z
  .object({
    name: z.string().describe('parameter name'),
    required: z.boolean().describe('true when a call must pass it (declared without a default)'),
    default: z.unknown().optional().describe('the declared default, when there is one'),
  })
  .describe('a declared procedure parameter');
export type AutomationParam = z.output<typeof AutomationParam>;

/** One automation as `automations.list` shows it. */
export const AutomationSummary = z
  .object({
    name: z
      .string()
      .describe(
        'the config key without parameters: procedure.<name>, event.hook.<Name> (web hooks too) or cron.<Name>; script ones the same, with the name the script gave (or <file stem>#<n>)',
      ),
    kind: AutomationKind,
    source: AutomationSource,
    editable: z.boolean().describe('true for YAML automations (automations.save can change it)'),
    enabled: z
      .boolean()
      .describe('false when switched off by automations.disable (procedures: always true)'),
    last_run: AutomationRun.nullable().describe('the most recent recorded run, or null'),
    next_run: z
      .string()
      .nullable()
      .describe('crons: the next scheduled run, ISO 8601 UTC (null when disabled or never)'),
    schedule: z.string().nullable().describe('crons: the cron expression as written'),
    timezone: z.string().nullable().describe('crons: the IANA time zone, when set'),
    url: z.string().nullable().describe("web hooks: the path that calls it, '/hook/<name>'"),
    condition: z
      .string()
      .nullable()
      .describe(
        'event and web hooks: the condition in words, e.g. when a CustomEvent arrives with subtype = "door"',
      ),
    params: z.array(AutomationParam).describe('procedures: declared parameters; [] otherwise'),
  })
  .describe('one automation');
export type AutomationSummary = z.output<typeof AutomationSummary>;

/** `automations.list` output. */
export const ListOutput = z
  .object({ automations: z.array(AutomationSummary).describe('sorted by name') })
  .describe('the automations that match the filters');
export type ListOutput = z.output<typeof ListOutput>;

/** One node of an automation's steps, as a tree (the parsed steps, not the YAML text). */
export type OutlineStep =
  | { type: 'action'; action: string; args: unknown; ignore_errors?: boolean; target?: unknown }
  | { type: 'if'; condition: string; then: OutlineStep[]; elif: OutlineElif[]; else: OutlineStep[] }
  | { type: 'for' | 'fork'; variable: string; iterable: string; steps: OutlineStep[] }
  | { type: 'while'; condition: string; steps: OutlineStep[] }
  | { type: 'set'; values: Record<string, unknown> }
  | { type: 'return'; value: unknown }
  | { type: 'break' | 'continue' };

/** An `elif` branch of an `if` node. */
export interface OutlineElif {
  condition: string;
  then: OutlineStep[];
}

export const OutlineStep: z.ZodType<OutlineStep> = z.lazy(() =>
  z
    .union([
      z.object({
        type: z.literal('action').describe('a call of an action or procedure'),
        action: z.string().describe('the action called'),
        args: z.unknown().describe('its arguments as written (${} expressions unevaluated)'),
        ignore_errors: z
          .boolean()
          .optional()
          .describe('true when its failure does not stop the run'),
        target: z.unknown().optional().describe('the instance of the cluster that runs it'),
      }),
      z.object({
        type: z.literal('if').describe('a condition'),
        condition: z.string().describe('the condition expression, without ${}'),
        then: z.array(OutlineStep).describe('steps when it holds'),
        elif: z
          .array(
            z.object({
              condition: z.string().describe('the elif condition'),
              then: z.array(OutlineStep).describe('steps when it holds'),
            }),
          )
          .describe('elif branches, in order'),
        else: z.array(OutlineStep).describe('steps when no condition holds ([] for none)'),
      }),
      z.object({
        type: z.enum(['for', 'fork']).describe('a loop, sequential (for) or parallel (fork)'),
        variable: z.string().describe('the loop variable'),
        iterable: z.string().describe('the expression looped over'),
        steps: z.array(OutlineStep).describe('the loop body'),
      }),
      z.object({
        type: z.literal('while').describe('a loop while a condition holds'),
        condition: z.string().describe('the condition expression'),
        steps: z.array(OutlineStep).describe('the loop body'),
      }),
      z.object({
        type: z.literal('set').describe('variable assignments'),
        values: z.record(z.string(), z.unknown()).describe('names and values as written'),
      }),
      z.object({
        type: z.literal('return').describe('ends the run with a value'),
        value: z.unknown().describe('the value as written; null for the last output'),
      }),
      z.object({ type: z.enum(['break', 'continue']).describe('a loop jump') }),
    ])
    .describe('one step'),
);

/** `automations.get` output. */
export const GetOutput = AutomationSummary.extend({
  yaml: z
    .string()
    .describe(
      'YAML automations: the text of just this automation as written in its file (comments included); script ones: ""',
    ),
  version: z
    .string()
    .describe('opaque hash of that text (of the script for script ones): pass it to save/delete'),
  outline: z.array(OutlineStep).describe('the steps as a tree; [] for script automations'),
  script_source: z
    .string()
    .optional()
    .describe('script automations: the whole script file, read-only'),
  runs: z.array(AutomationRun).describe('its 10 most recent runs, newest first'),
}).describe('one automation with its text, steps and recent runs');
export type GetOutput = z.output<typeof GetOutput>;

/** `automations.save` output. */
export const SaveOutput = z
  .object({
    name: z.string().describe('the automation saved'),
    version: z.string().describe('its new version (for the next save)'),
    created: z.boolean().describe('true when it is new (written to automations.yaml)'),
    file: z.string().describe('the file written'),
    warnings: z
      .array(z.string())
      .describe(
        'what loads but deserves a look, about this automation (e.g. an action of a plugin that is not enabled or not installed: it fails when it runs)',
      ),
    checked: z
      .literal(true)
      .optional()
      .describe('only checked (check: true): valid, and nothing was written; version is unchanged'),
  })
  .describe('the saved automation, in effect at once (or, with check, only checked)');
export type SaveOutput = z.output<typeof SaveOutput>;

/** `automations.delete` output. */
export const DeleteOutput = z
  .object({ deleted: z.string().describe('the automation removed') })
  .describe('the deleted automation');
export type DeleteOutput = z.output<typeof DeleteOutput>;

/** `automations.enable` / `automations.disable` output. */
export const EnableOutput = z
  .object({
    name: z.string().describe('the automation'),
    enabled: z.boolean().describe('whether it now fires'),
  })
  .describe('the switch as it now is');
export type EnableOutput = z.output<typeof EnableOutput>;

/** One step `automations.test` ran or (dry run) would run. */
export const TestStep = z
  .object({
    action: z.string().describe('the action called (or that would be)'),
    args: z.unknown().describe('its arguments with ${} expressions evaluated'),
    skipped: z
      .string()
      .optional()
      .describe(
        'why it was not called (dry run: "dry run", so later steps see null as its output)',
      ),
  })
  .describe('one action step');
export type TestStep = z.output<typeof TestStep>;

/** `automations.test` output. */
export const TestOutput = z
  .object({
    matched: z
      .boolean()
      .optional()
      .describe('hooks: whether the sample event matched the condition'),
    event: z.unknown().optional().describe('hooks: the sample event used'),
    run_id: z.string().optional().describe('the recorded run (not in a dry run)'),
    steps: z
      .array(TestStep)
      .optional()
      .describe('dry run: the action steps that would run, in order'),
    output: z.unknown().optional().describe('the output of the run'),
    error: z.string().optional().describe('the error a failed run ended with'),
  })
  .describe('the outcome of a test run');
export type TestOutput = z.output<typeof TestOutput>;
