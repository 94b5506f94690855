// "Create paper account" (DESIGN.md "How things run"): a funded account on the embedded paper exchange whose
// credentials the SPA puts into the trade token form.
import { z } from 'zod';
import { resultOf } from './common';

/**
 * Starting balance in USDT, whole cents from 1 to 1 000 000 000 (so it is written without an exponent); the
 * paper exchange's own default applies when absent.
 */
export const createPaperAccountBody = z
  .object({
    balance: z
      .number()
      .min(1, 'Must be at least 1')
      .max(1_000_000_000)
      .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, 'Must be whole cents')
      .optional(),
  })
  .meta({ id: 'CreatePaperAccountBody' });
export type CreatePaperAccountBody = z.infer<typeof createPaperAccountBody>;

export const paperAccount = z
  .object({ api_key: z.string().min(1), api_secret: z.string().min(1) })
  .meta({ id: 'PaperAccount' });
export type PaperAccount = z.infer<typeof paperAccount>;
export const createPaperAccountAnswer = resultOf(paperAccount);
