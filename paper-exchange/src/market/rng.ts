// Seeded pseudo-random numbers for the price model: sfc32 (small fast chaotic generator, 128-bit state)
// seeded through splitmix32, plus standard normals by the Box–Muller transform. Pure integer/float maths,
// so a seed gives the same path on every run of the same Node version.

const SQRT12 = Math.sqrt(12);

export type RngState = [number, number, number, number, number | null];

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** 32-bit FNV-1a, to derive one independent stream per symbol from the same seed. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spare: number | null = null;

  constructor(seed: number, stream = 0) {
    const mix = splitmix32((seed ^ Math.imul(stream, 0x27d4eb2d)) >>> 0);
    this.a = mix();
    this.b = mix();
    this.c = mix();
    this.d = mix();
    // Warm up so that similar seeds diverge before the first number is used.
    for (let i = 0; i < 16; i++) this.nextU32();
  }

  nextU32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in (0, 1), never exactly 0 so that log() is always finite. */
  uniform(): number {
    return (this.nextU32() + 0.5) / 4294967296;
  }

  /**
   * Fills out[0..n) with zero-mean, unit-variance uniform shocks. The model sums 60 of them per minute, so
   * minute innovations are normal by the central limit theorem at a fraction of the cost of Box–Muller draws.
   * This is the hot loop of the price model: the generator state is held in locals so V8 keeps it in registers.
   */
  fillShocks(out: Float64Array, n: number): void {
    let { a, b, c, d } = this;
    for (let i = 0; i < n; i++) {
      const t = (((a + b) >>> 0) + d) >>> 0;
      d = (d + 1) >>> 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) >>> 0;
      c = (((c << 21) | (c >>> 11)) + t) >>> 0;
      out[i] = ((t + 0.5) / 4294967296 - 0.5) * SQRT12;
    }
    this.a = a;
    this.b = b;
    this.c = c;
    this.d = d;
  }

  normal(): number {
    if (this.spare !== null) {
      const value = this.spare;
      this.spare = null;
      return value;
    }
    const r = Math.sqrt(-2 * Math.log(this.uniform()));
    const theta = 2 * Math.PI * this.uniform();
    this.spare = r * Math.sin(theta);
    return r * Math.cos(theta);
  }

  getState(): RngState {
    return [this.a, this.b, this.c, this.d, this.spare];
  }

  setState(state: RngState): void {
    [this.a, this.b, this.c, this.d, this.spare] = state;
  }
}
