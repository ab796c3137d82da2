import { describe, expect, it } from 'vitest';
import { didYouMean, suggest } from '../../src/lib/suggest.ts';

describe('suggest', () => {
  it('offers the close names, closest first', () => {
    expect(suggest('plya', ['play', 'pause', 'next'])).toEqual(['play']);
    expect(suggest('paus', ['pause', 'play'])).toEqual(['pause']);
    expect(suggest('xyz', ['play', 'pause'])).toEqual([]);
  });

  // With many event kinds (MQTTMessageEvent, TextMessageEvent, PhotoMessageEvent...), a long name
  // is within the threshold of several that share its tail: only the near ties are worth saying.
  it('leaves out names much farther than the best one', () => {
    const kinds = [
      'MQTTMessageEvent',
      'TextMessageEvent',
      'PhotoMessageEvent',
      'VideoMessageEvent',
    ];
    expect(suggest('MQTTMesageEvent', kinds)).toEqual(['MQTTMessageEvent']);
    expect(didYouMean('MQTTMesageEvent', kinds)).toBe('. Did you mean "MQTTMessageEvent"?');
  });

  it('keeps near ties', () => {
    expect(suggest('sta', ['stat', 'star', 'stop', 'restart'])).toEqual(['star', 'stat', 'stop']);
  });
});
