// Shapes every API answer shares (DESIGN.md: answers are { result }, errors are { detail }).
import { z } from 'zod';

export const errorBody = z.object({ detail: z.string() }).meta({ id: 'ErrorBody' });
export type ErrorBody = z.infer<typeof errorBody>;

/** Wraps a result schema as `{ "result": … }`. */
export function resultOf<T extends z.ZodType>(result: T) {
  return z.object({ result });
}

/** trend_moment of SPEC.md §3: -1 bear, 0 flat, 1 bull. */
export const trendMoment = z.union([z.literal(-1), z.literal(0), z.literal(1)]);
export type TrendMoment = z.infer<typeof trendMoment>;
