import { describe, expect, test } from 'vitest';
import { ChangeClock } from './change-clock';

describe('ChangeClock', () => {
  test('a key reads 0 until it changes, then a new number at every change', () => {
    const clock = new ChangeClock(10);
    expect(clock.of('a')).toBe(0);
    clock.change('a');
    const first = clock.of('a');
    expect(first).toBeGreaterThan(0);
    clock.change('b');
    expect(clock.of('a')).toBe(first);
    clock.change('a');
    expect(clock.of('a')).toBeGreaterThan(first);
  });

  test('keeps at most maxKeys; a key pushed out never reads as a number from before its last change', () => {
    const clock = new ChangeClock(2);
    expect(clock.of('a')).toBe(0);
    const seenBefore = clock.of('a');
    clock.change('a');
    clock.change('b');
    clock.change('c'); // pushes 'a' out
    expect(clock.size).toBe(2);
    // 'a' changed after seenBefore was read: it must not read as seenBefore (0) now that it is forgotten.
    expect(clock.of('a')).not.toBe(seenBefore);
    // A reader that saw 'a' before it was pushed out and after its last change may keep what it built.
    const clock2 = new ChangeClock(1);
    clock2.change('a');
    const seen = clock2.of('a');
    clock2.change('b'); // pushes 'a' out, the floor becomes a's number
    expect(clock2.of('a')).toBe(seen);
    clock2.change('c'); // pushes 'b' out: a larger floor, a rebuild for 'a' but never a stale answer
    expect(clock2.of('a')).toBeGreaterThan(seen);
  });
});
