// A hook whose event kind is misspelt would never fire: it is a configuration error with a "did you
// mean"; known kinds in any spelling and namespaced kinds of one's own still load.
import { describe, expect, it } from 'vitest';
import { configChecker } from '../helpers/config-check.ts';

const config = configChecker();

const check = (type: string) =>
  config.check(`event.hook.H:\n  if:\n    type: ${type}\n  then:\n    - action: utils.echo\n`);

describe('the event kind of a hook', () => {
  it.each([
    ['CustomEvnt', 'CustomEvent'],
    ['WebhookEvnt', 'WebhookEvent'],
    ['MQTTMesageEvent', 'MQTTMessageEvent'],
  ])('%s is refused at load, suggesting %s', (type, near) => {
    expect(() => check(type)).toThrow(
      new RegExp(
        `event\\.hook\\.H: unknown event kind "${type}"\\. Did you mean "${near}"\\? Known kinds: CustomEvent, `,
      ),
    );
  });

  it('an unknown bare kind says how to name a kind of its own', () => {
    expect(() => check('SpeechRecognizedEvent')).toThrow(
      /unknown event kind "SpeechRecognizedEvent"\. Known kinds: .* A kind of your own is named in full: pipit\.message\.event\.<module>\.<Class>/,
    );
  });

  it.each([
    'CustomEvent',
    'custom.CustomEvent',
    'pipit.message.event.custom.CustomEvent',
    'svc.message.event.custom.CustomEvent',
    'platypush.message.event.custom.CustomEvent',
    'platypush.message.event.http.hook.WebhookEvent',
    'MQTTMessageEvent',
    'platypush.message.event.mqtt.MQTTMessageEvent',
    'platypush.message.event.assistant.SpeechRecognizedEvent',
    'pipit.message.event.garage.DoorOpened',
  ])('%s loads', (type) => {
    expect(check(type)).toEqual([]);
  });
});
