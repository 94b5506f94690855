// Trade token level of SPEC.md §4, for both modes, as pure functions over what the store knows.
import {
  TradeTokenLevel,
  TradeTokenMessage,
  type TradeTokenContent,
  type TradeTokenRecord,
} from '../../contracts/trade-tokens';

export { TradeTokenLevel };

/** What the panel shows about a platform's token: never the credentials. */
export interface TradeTokenState {
  level: TradeTokenLevel;
  trade_token_uuid?: string;
  created_at?: string;
  updated_at?: string | null;
  message?: string | null;
}

/**
 * Client mode: no envelope → NO_TRADE_TOKEN; an envelope without a PIN → NO_PIN_CODE with its message;
 * decryption with the PIN (and the user's key, which `open` holds) → TRADE_AVAILABLE; a failed decryption →
 * WRONG_PIN_CODE.
 */
export function clientTokenState(
  envelope: string | null,
  pinCode: string | undefined,
  open: (envelope: string, pinCode: string) => TradeTokenContent,
): TradeTokenState {
  if (!envelope) return { level: TradeTokenLevel.NO_TRADE_TOKEN };
  if (!pinCode) return { level: TradeTokenLevel.NO_PIN_CODE, message: TradeTokenMessage.NO_PIN_CODE };
  try {
    const content = open(envelope, pinCode);
    return {
      level: TradeTokenLevel.TRADE_AVAILABLE,
      trade_token_uuid: content.trade_token_uuid,
      created_at: content.created_at,
      updated_at: content.updated_at ?? null,
      message: content.message,
    };
  } catch {
    return { level: TradeTokenLevel.WRONG_PIN_CODE, message: TradeTokenMessage.WRONG_PIN_CODE };
  }
}

/** Server mode: the fetched record as it is; a failed fetch removes the token (NO_TRADE_TOKEN). */
export function serverTokenState(record: TradeTokenRecord | undefined): TradeTokenState {
  if (!record) return { level: TradeTokenLevel.NO_TRADE_TOKEN };
  return {
    level: record.level,
    trade_token_uuid: record.trade_token_uuid,
    created_at: record.created_at,
    updated_at: record.updated_at,
    message: record.message,
  };
}
