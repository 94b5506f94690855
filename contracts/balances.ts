// Account balance per platform (SPEC.md §3, §4 "Balance retrieval", §7 POST /account_balance/get_account_balance/).
import { z } from 'zod';
import { resultOf } from './common';
import { pinCode } from './trade-tokens';

/** The exchange account totals in USDT, parsed to numbers (SPEC.md §3, §7 GET /fapi/v2/account). */
export const accountBalance = z
  .object({
    available_balance: z.number(),
    total_margin_balance: z.number(),
    total_unrealized_profit: z.number(),
    total_wallet_balance: z.number(),
  })
  .meta({ id: 'AccountBalance' });
export type AccountBalance = z.infer<typeof accountBalance>;

export const getAccountBalanceBody = z
  .object({ pin_code: pinCode, platform_uuid: z.uuid() })
  .meta({ id: 'GetAccountBalanceBody' });
export type GetAccountBalanceBody = z.infer<typeof getAccountBalanceBody>;
export const accountBalanceAnswer = resultOf(accountBalance);
