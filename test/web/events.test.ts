import { describe, expect, it } from 'vitest';
import {
  appendCapped,
  backoffDelay,
  customEventFrame,
  isEventMessage,
  shortKind,
} from '../../web/src/lib/events.ts';
import { validateCredentials } from '../../web/src/lib/auth.ts';
import { parseExpiryDays } from '../../web/src/lib/tokens.ts';

describe('event helpers', () => {
  it('shortens kinds and recognises event frames', () => {
    expect(shortKind('pipit.message.event.custom.CustomEvent')).toBe('CustomEvent');
    expect(shortKind('CustomEvent')).toBe('CustomEvent');
    expect(isEventMessage({ type: 'event', args: { type: 'x' } })).toBe(true);
    expect(isEventMessage({ type: 'error', errors: [] })).toBe(false);
    expect(isEventMessage({ type: 'event' })).toBe(false);
  });

  it('builds the publish frame of a custom event', () => {
    expect(JSON.parse(customEventFrame('door_open', { who: 'ada' }))).toEqual({
      type: 'event',
      args: { type: 'CustomEvent', subtype: 'door_open', args: { who: 'ada' } },
    });
  });

  it('backs off exponentially with jitter, capped at 15 s', () => {
    expect(backoffDelay(0, () => 0.5)).toBe(500);
    expect(backoffDelay(3, () => 0.5)).toBe(4000);
    expect(backoffDelay(50, () => 1)).toBe(18_750);
    expect(backoffDelay(50, () => 0)).toBe(11_250);
  });

  it('caps the live list, dropping the oldest', () => {
    expect(appendCapped([1, 2, 3], 4, 3)).toEqual([2, 3, 4]);
    expect(appendCapped([], 1, 3)).toEqual([1]);
  });
});

describe('form checks that mirror the server', () => {
  it('validates registration fields', () => {
    expect(validateCredentials('ada', 'long enough', 'long enough')).toEqual({
      username: undefined,
      password: undefined,
      confirm: undefined,
    });
    const bad = validateCredentials('a b', 'short', 'other');
    expect(bad.username).toMatch(/letters, digits/);
    expect(bad.password).toMatch(/at least 8/);
    expect(bad.confirm).toMatch(/differ/);
    expect(validateCredentials('x'.repeat(65), 'x'.repeat(1025)).password).toMatch(/at most 1024/);
  });

  it('parses the optional token expiry', () => {
    expect(parseExpiryDays('')).toEqual({ days: null });
    expect(parseExpiryDays('30')).toEqual({ days: 30 });
    expect(parseExpiryDays('0').error).toBeDefined();
    expect(parseExpiryDays('4000').error).toMatch(/3650/);
  });
});
