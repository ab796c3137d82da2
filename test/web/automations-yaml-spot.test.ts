import { describe, expect, it } from 'vitest';
import { yamlSpot } from '../../web/src/lib/yaml-spot.ts';

/** The spot at the `|` of a text (the marker is removed). */
function at(text: string) {
  const pos = text.indexOf('|');
  return yamlSpot(text.slice(0, pos) + text.slice(pos + 1), pos);
}

describe('yamlSpot: what the automation editor completes at the cursor', () => {
  it('an action name after `action:`, in a list item or not, quoted or not', () => {
    expect(at('procedure.a:\n  - action: utils.ec|')).toEqual({
      kind: 'action',
      from: 25,
      prefix: 'utils.ec',
    });
    expect(at("cron.B:\n  actions:\n    - action: '|")).toMatchObject({
      kind: 'action',
      prefix: '',
    });
  });

  it("an argument key under `args:`, naming the step's action and the keys already written", () => {
    const spot = at(
      'procedure.a:\n  - action: utils.sleep\n    args:\n      seconds: 1\n      ti|\n  - action: utils.echo',
    );
    expect(spot).toMatchObject({ kind: 'arg', action: 'utils.sleep', prefix: 'ti' });
    expect(spot).toMatchObject({ used: ['seconds'] });
  });

  it('finds the action written after `args:` in the same step, not the next step', () => {
    const spot = at(
      'event.hook.X:\n  then:\n    - args:\n        |\n      action: utils.sleep\n    - action: utils.echo',
    );
    expect(spot).toMatchObject({ kind: 'arg', action: 'utils.sleep', prefix: '' });
  });

  it('nothing outside an action name or an args block', () => {
    expect(at('event.hook.X:\n  if:\n    ty|')).toBeNull();
    expect(at('procedure.a:\n  - action: utils.echo\n    args: {a: |')).toBeNull();
    expect(at('procedure.a:\n  - action: utils.echo\n    args:\n      a: va|')).toBeNull();
  });
});
