// Account configuration endpoints (reference §5): leverage (-4028, -4161, -2027), margin type (-4046,
// -4047, -4048) and position mode (-4059, -4067, -4068), each applied exactly as Binance does.
import type { Params } from './auth.js';
import { Errors } from './errors.js';
import { leverageUpdate } from './events.js';
import type { ExchangeCore } from './exchange-core.js';
import { maxNotionalForLeverage } from './market/symbols.js';
import { parseBool, requireSymbol } from './order-params.js';
import type { AccountRecord, MarginType } from './state.js';

export function setLeverage(
  core: ExchangeCore,
  account: AccountRecord,
  params: Params,
): Record<string, unknown> {
  const spec = requireSymbol(params);
  const text = params.get('leverage');
  if (!text) throw Errors.mandatory('leverage');
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > spec.maxLeverage)
    throw Errors.invalidLeverage(text);
  const leverage = Number(text);
  const settings = core.accounts.settings(account, spec.symbol);
  const positions = core.positionsOf(account.id).filter((p) => p.symbol === spec.symbol);
  if (settings.marginType === 'ISOLATED' && positions.length > 0 && leverage < settings.leverage) {
    throw Errors.leverageReductionIsolated();
  }
  const mark = core.market.mark(spec.symbol);
  const cap = maxNotionalForLeverage(spec, leverage);
  for (const position of positions) {
    if (mark.times(position.positionAmt).abs().greaterThan(cap)) throw Errors.maxLeverageRatio();
  }
  const now = core.now();
  core.accounts.updateSettings(account, spec.symbol, { leverage }, now);
  core.emit(account.id, leverageUpdate(spec.symbol, leverage, now));
  return { leverage, maxNotionalValue: String(cap), symbol: spec.symbol };
}

export function setMarginType(
  core: ExchangeCore,
  account: AccountRecord,
  params: Params,
): Record<string, unknown> {
  const spec = requireSymbol(params);
  const text = params.get('marginType');
  if (!text) throw Errors.mandatory('marginType');
  const marginType = text.toUpperCase() as MarginType;
  if (marginType !== 'ISOLATED' && marginType !== 'CROSSED') throw Errors.invalidParameter('marginType');
  if (core.accounts.settings(account, spec.symbol).marginType === marginType) throw Errors.noNeedMarginType();
  if (
    core.openOrdersOf(account.id, spec.symbol).length > 0 ||
    core.openAlgosOf(account.id, spec.symbol).length > 0
  ) {
    throw Errors.marginTypeOpenOrders();
  }
  if (core.positionsOf(account.id).some((p) => p.symbol === spec.symbol)) throw Errors.marginTypePosition();
  core.accounts.updateSettings(account, spec.symbol, { marginType }, core.now());
  return { code: 200, msg: 'success' };
}

export function setPositionMode(
  core: ExchangeCore,
  account: AccountRecord,
  params: Params,
): Record<string, unknown> {
  if (!params.get('dualSidePosition')) throw Errors.mandatory('dualSidePosition');
  const dual = parseBool(params, 'dualSidePosition') as boolean;
  if (account.dualSidePosition === dual) throw Errors.noNeedPositionSide();
  // The mode applies to every symbol (reference §5), so any open order or position anywhere blocks it.
  if (core.openOrdersOf(account.id).length > 0 || core.openAlgosOf(account.id).length > 0) {
    throw Errors.positionSideOpenOrders();
  }
  if (core.positionsOf(account.id).length > 0) throw Errors.positionSideQuantity();
  account.dualSidePosition = dual;
  account.updateTime = core.now();
  core.store.touch('accounts', account.id);
  return { code: 200, msg: 'success' };
}
