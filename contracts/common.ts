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

/** Earliest and latest instants a range may name: the database and the exchanges hold nothing outside. */
export const API_DATE_MIN_MS = Date.UTC(2000, 0, 1);
export const API_DATE_MAX_MS = Date.UTC(2100, 0, 1);

/** An ISO-8601 date-time with an offset, between 2000 and 2100. */
export const apiDateTime = z.iso.datetime({ offset: true }).refine(
  (value) => {
    const time = Date.parse(value);
    return time >= API_DATE_MIN_MS && time < API_DATE_MAX_MS;
  },
  { message: 'Must be a date between 2000 and 2100' },
);
