// "Create paper account" (DESIGN.md "How things run"): a funded account on the embedded paper exchange whose
// credentials the SPA puts into the trade token form.
import { z } from 'zod';
import { resultOf } from './common';

/** Starting balance in USDT; the paper exchange's own default applies when absent. */
export const createPaperAccountBody = z
  .object({ balance: z.number().positive().max(1_000_000_000).optional() })
  .meta({ id: 'CreatePaperAccountBody' });
export type CreatePaperAccountBody = z.infer<typeof createPaperAccountBody>;

export const paperAccount = z
  .object({ api_key: z.string().min(1), api_secret: z.string().min(1) })
  .meta({ id: 'PaperAccount' });
export type PaperAccount = z.infer<typeof paperAccount>;
export const createPaperAccountAnswer = resultOf(paperAccount);
