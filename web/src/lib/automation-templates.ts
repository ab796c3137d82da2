import type { AutomationKind } from './automations.ts';

/** A starting point for a new automation: valid YAML that runs as it is. */
export interface AutomationTemplate {
  kind: AutomationKind;
  title: string;
  summary: string;
  yaml: string;
}

/**
 * The templates "New automation" offers, one per kind. Each is a whole, valid automation (it only
 * echoes), so a first Save works and the steps can be changed from there.
 *
 * @example
 * TEMPLATES.find((t) => t.kind === 'cron')!.yaml.startsWith('cron.'); // true
 */
export const TEMPLATES: readonly AutomationTemplate[] = [
  {
    kind: 'procedure',
    title: 'Procedure',
    summary: 'Steps you run by name: from Execute, the API, the command line or other automations.',
    yaml: `# Run it from Execute as procedure.greet, or with: pipit run procedure.greet who=Ada
procedure.greet(who, greeting=Hello):
  - action: utils.echo
    args:
      message: \${greeting}, \${who}!
  - if \${who == 'Ada'}:
      - action: utils.echo
        args:
          message: Welcome back
`,
  },
  {
    kind: 'event_hook',
    title: 'Event hook',
    summary: 'Steps that run when a matching event arrives (from a device, a client, event.fire).',
    yaml: `# Fire it with: pipit run event.fire subtype=door_open
event.hook.OnDoorOpen:
  if:
    type: CustomEvent
    subtype: door_open
  then:
    - action: utils.echo
      args:
        message: The door opened (\${args})
`,
  },
  {
    kind: 'web_hook',
    title: 'Web hook',
    summary:
      'Steps that run when something calls /hook/<name> over HTTP; what they return answers.',
    yaml: `# Call it with: curl -X POST -d '{"who": "Ada"}' -H 'Content-Type: application/json' http://localhost:8008/hook/greet
event.hook.GreetWebhook:
  if:
    type: WebhookEvent
    hook: greet
  then:
    - action: utils.echo
      args:
        message: Hello from \${method}
    - return:
        greeted: \${data.who}
`,
  },
  {
    kind: 'cron',
    title: 'Cron',
    summary: 'Steps that run on a schedule (5 fields, or 6 with the seconds last).',
    yaml: `cron.EveryMorning:
  cron_expression: '0 7 * * *'   # 07:00 every day, in the machine's time zone
  actions:
    - action: utils.echo
      args:
        message: Good morning
`,
  },
];
