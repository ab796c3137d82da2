// Phrase patterns are matched as Platypush matches a spoken phrase (its own test:
// tests/test_event_parse.py::test_speech_recognized_event_parse), with its "basic regexes".
import { describe, expect, it } from 'vitest';
import { compileCondition } from '../../src/events/match.ts';
import { compileBindings, compilePhrase } from '../../src/events/phrase.ts';

const SPEECH = 'platypush.message.event.assistant.SpeechRecognizedEvent';
const speech = (phrase: string) => ({
  type: `pipit.message.event.assistant.SpeechRecognizedEvent`,
  phrase,
});

describe("Platypush's phrase matching", () => {
  it('test_speech_recognized_event_parse: matches anywhere, case-insensitively, binding answer', () => {
    const condition = { type: SPEECH, phrase: 'This is (the)? answer: ${answer}' };
    const matches = compileCondition(condition);
    const bind = compileBindings(condition);
    expect(matches(speech('GARBAGE GARBAGE this is the answer: 42'))).toBe(true);
    expect(bind(speech('GARBAGE GARBAGE this is the answer: 42'))).toEqual({ answer: '42' });
    expect(matches(speech('what is not the answer? 43'))).toBe(false);
  });

  it('an optional word may be absent', () => {
    expect(
      compilePhrase('This is (the)? answer: ${answer}', 'phrase').bind('this is answer: 7'),
    ).toEqual({
      answer: '7',
    });
  });

  it.each([
    ['play (the)? music', 'play the music', true],
    ['play (the)? music', 'Play music please', true],
    ['play (the)? music', 'stop the music', false],
    ['turn on (the)? lights?', 'turn on the light', true],
    ['turn on (the)? lights?', 'could you turn on the kitchen lights', true],
    ['turn (on|off) (the)? lights?', 'turn off lights', true],
    ['turn (on|off) (the)? lights?', 'turn up the lights', false],
  ])('a phrase field without placeholders, %j, against %j: %s', (phrase, text, expected) => {
    expect(compileCondition({ type: SPEECH, phrase })(speech(text))).toBe(expected);
  });

  it('placeholders take several words, keep their case, and the last one takes the rest', () => {
    expect(
      compilePhrase('play ${title} by ${artist}', 'subtype').bind(
        'please Play Let It Be by The Beatles',
      ),
    ).toEqual({ title: 'Let It Be', artist: 'The Beatles' });
  });

  it('regex characters other than ( ) | ? are literal', () => {
    const phrase = compilePhrase('cost $5.00 [net] a+b', 'phrase');
    expect(phrase.test('the cost $5.00 [net] a+b')).toBe(true);
    expect(phrase.test('cost $5x00 [net] a+b')).toBe(false);
    expect(phrase.test('cost $5.00 [net] aab')).toBe(false);
  });

  it.each([
    ['play (the music', /a "\(" without its "\)"/],
    ['play the) music', /a "\)" without its "\("/],
    ['play ?music', /a "\?" with nothing before it/],
    ['a? b? c? d? e? f? g? h? i?', /at most 8 "\?" in a phrase/],
    ['${a} ${b}', /put some text between the placeholders/],
    ['${a} and ${a}', /"a" appears twice/],
  ])('refuses %j at load', (pattern, message) => {
    expect(() => compilePhrase(pattern, 'phrase')).toThrow(message);
  });

  it('stays fast on long hostile text', () => {
    const phrase = compilePhrase('a? a? a? a? a? a? a? a? ${x} b', 'phrase');
    const text = `${'a '.repeat(4990)}c`;
    const started = performance.now();
    expect(phrase.test(text)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
