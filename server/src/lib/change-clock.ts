// When each key (a user) last changed, as a sequence number, for a bounded number of keys. Readers that keep
// something built from a key's state compare the number they built it at with `of(key)`: equal means nothing
// changed since. Every change gets a new, larger number, so a key pushed out (least recently used first) reads
// as the largest number pushed out so far: never equal to a number it was given before a later change, so a
// forgotten key can cost a rebuild but never passes an old answer off as current. Used by the trade monitor's
// live revisions and the open-trades view's write generations, which otherwise kept one number for every user
// who ever had a trade.
import { LRUCache } from 'lru-cache';

export class ChangeClock {
  private sequence = 0;
  /** The largest number of a key pushed out. */
  private floor = 0;
  private readonly last: LRUCache<string, number>;

  constructor(maxKeys: number) {
    this.last = new LRUCache<string, number>({
      max: maxKeys,
      dispose: (value, _key, reason) => {
        if (reason === 'evict') this.floor = Math.max(this.floor, value);
      },
    });
  }

  /** Records a change of `key`. */
  change(key: string): void {
    this.sequence += 1;
    this.last.set(key, this.sequence);
  }

  /** The number of `key`'s last change: 0 if none was ever recorded, the floor if it was pushed out. */
  of(key: string): number {
    return this.last.get(key) ?? this.floor;
  }

  /** Keys tracked (at most maxKeys). */
  get size(): number {
    return this.last.size;
  }
}
