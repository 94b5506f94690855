import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Palette } from '../../../components/ui';
import { PERCENT_DECIMALS, SIGNAL_INFO_HIDE_DELAY_MS } from '../../../config/constants';
import { formatFixed } from '../../../lib/format';
import { preferencesStore } from '../../../stores/preferences-store';
import { riskLimitsStore } from '../../../stores/risk-limits-store';
import { roundDecimal } from '../../../../shared-core/trade-core';
import type { RiskLimitState } from '../../../../contracts';
import { TradeTokenLevel } from '../../../stores/token-level';
import { tradeTokensStore } from '../../../stores/trade-tokens-store';
import { signalInfoOf, signalInfoStore, type SignalInfo } from '../signal-info-store';
import './signals.css';

/** The chips' colour says whether a trade could be opened with these settings (the token level). */
const LEVEL_PALETTE: Readonly<Record<TradeTokenLevel, Palette>> = {
  [TradeTokenLevel.TRADE_AVAILABLE]: Palette.GREEN,
  [TradeTokenLevel.WRONG_PIN_CODE]: Palette.ORANGE,
  [TradeTokenLevel.NO_PIN_CODE]: Palette.GRAY,
  [TradeTokenLevel.NO_TRADE_TOKEN]: Palette.RED,
};

const LEVEL_KEY: Readonly<Record<TradeTokenLevel, string>> = {
  [TradeTokenLevel.TRADE_AVAILABLE]: 'trade_token.status.available',
  [TradeTokenLevel.WRONG_PIN_CODE]: 'trade_token.status.wrong_pin_code',
  [TradeTokenLevel.NO_PIN_CODE]: 'trade_token.status.no_pin_code',
  [TradeTokenLevel.NO_TRADE_TOKEN]: 'trade_token.status.no_trade_token',
};

function shown(value: number | undefined, decimals: number): string {
  return value === undefined ? '—' : formatFixed(value, decimals);
}

/** The five chips: TM margin $, TL leverage, TP / SL / TS percent (SPEC.md §2 "Signal-info header bar"). */
function chipsOf(info: SignalInfo) {
  return [
    { code: 'TM', key: 'trade_margin', text: `${shown(info.trade_margin, 2)} $` },
    { code: 'TL', key: 'trade_leverage', text: `×${shown(info.trade_leverage, 0)}` },
    {
      code: 'TP',
      key: 'trade_take_profit_percent',
      text: `${shown(info.trade_take_profit_percent, PERCENT_DECIMALS)} %`,
    },
    {
      code: 'SL',
      key: 'trade_stop_loss_percent',
      text: `${shown(info.trade_stop_loss_percent, PERCENT_DECIMALS)} %`,
    },
    {
      code: 'TS',
      key: 'trade_treiling_stop_percent',
      text: `${shown(info.trade_treiling_stop_percent, PERCENT_DECIMALS)} %`,
    },
  ] as const;
}

/**
 * The risk limits' chip (issue 18): open trades against trade_max_open_trades and the UTC day's loss against
 * trade_daily_loss_limit, red once a limit is reached (auto-open stops, an open is refused). None while both
 * limits are OFF.
 */
function RiskLimitChip({ state }: { state: RiskLimitState }) {
  const { t } = useTranslation();
  const parts: string[] = [];
  if (state.trade_max_open_trades > 0) {
    parts.push(
      t('signal_info.risk_open', { open: state.open_trade_count, max: state.trade_max_open_trades }),
    );
  }
  if (state.trade_daily_loss_limit > 0) {
    const loss = roundDecimal(state.daily_loss, 2, 'half-away-from-zero');
    parts.push(t('signal_info.risk_loss', { loss, limit: state.trade_daily_loss_limit }));
  }
  if (parts.length === 0) return null;
  const isReached = state.is_max_open_trades_reached || state.is_daily_loss_limit_reached;
  return (
    <Link
      to="/trade_preferences"
      className={`chip-label palette-${isReached ? Palette.RED : Palette.GRAY} signal-info-chip`}
      title={isReached ? t('signal_info.risk_reached') : t('signal_info.risk_title')}
      data-testid="signal-info-RL"
      data-reached={isReached}
    >
      <span className="signal-info-code">RL</span>
      <span className="numeric">
        {parts.join(' · ')}
        {isReached ? ` — ${t('signal_info.risk_reached_short')}` : ''}
      </span>
    </Link>
  );
}

/**
 * Header bar of a signal's trade settings. Hidden until there is signal info (a card under the pointer or
 * focus); after the info disappears it stays SIGNAL_INFO_HIDE_DELAY_MS, and as long as the pointer is on it,
 * so the pointer can travel from the card to a chip. Every chip links to /trade_preferences.
 */
export function SignalInfoBar() {
  const { t } = useTranslation();
  const { platform_uuid } = useSnapshot(signalInfoStore);
  const { platform_preferences_by_uuid } = useSnapshot(preferencesStore);
  const { token_by_platform_uuid } = useSnapshot(tradeTokensStore);
  const { state: riskState } = useSnapshot(riskLimitsStore);
  const [lastPlatform, setLastPlatform] = useState(platform_uuid);
  const [previous, setPrevious] = useState(platform_uuid);
  const [isLingering, setIsLingering] = useState(false);
  const [isHovered, setIsHovered] = useState(false);

  if (previous !== platform_uuid) {
    setPrevious(platform_uuid);
    if (platform_uuid !== undefined) {
      setLastPlatform(platform_uuid);
      setIsLingering(false);
    } else if (previous !== undefined) {
      setIsLingering(true);
    }
  }

  useEffect(() => {
    if (platform_uuid !== undefined || !isLingering || isHovered) return;
    const timer = setTimeout(() => setIsLingering(false), SIGNAL_INFO_HIDE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [platform_uuid, isLingering, isHovered]);

  const visiblePlatform = platform_uuid ?? (isLingering ? lastPlatform : undefined);
  if (visiblePlatform === undefined) return null;
  const info = signalInfoOf(
    platform_preferences_by_uuid[visiblePlatform],
    token_by_platform_uuid[visiblePlatform]?.level,
  );
  const palette = LEVEL_PALETTE[info.trade_token_level];
  return (
    <nav
      className="signal-info-bar"
      aria-label={t('signal_info.label')}
      onMouseEnter={() => setIsHovered(true)}
      onMouseLeave={() => setIsHovered(false)}
      data-testid="signal-info-bar"
      data-level={info.trade_token_level}
    >
      {chipsOf(info).map((chip) => (
        <Link
          key={chip.code}
          to="/trade_preferences"
          className={`chip-label palette-${palette} signal-info-chip`}
          title={`${t(`signal_info.${chip.key}`)} — ${t(LEVEL_KEY[info.trade_token_level])}`}
          data-testid={`signal-info-${chip.code}`}
        >
          <span className="signal-info-code">{chip.code}</span>
          <span className="numeric">{chip.text}</span>
        </Link>
      ))}
      {riskState && <RiskLimitChip state={riskState} />}
    </nav>
  );
}
