import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { Platform } from '../../../contracts/platforms';
import { TradeSide } from '../../../contracts/preferences';
import { Loader, PlatformChip } from '../../components/ui';
import { loadPlatforms, platformsStore, sortedPlatforms } from '../../stores/platforms-store';
import { EgressIpNote } from '../../features/trade-tokens/components/egress-ip-note';
import { PinCodePanel } from '../../features/trade-tokens/components/pin-code-panel';
import { TradeTokenPanel } from '../../features/trade-tokens/components/trade-token-panel';
import { TradeTokenStatusChip } from '../../features/trade-tokens/components/trade-token-status-chip';
import { RepairTradesBox } from '../../features/trades/components/repair-trades-box';
import { TradeTokenLevel } from '../../stores/token-level';
import { tradeTokensStore } from '../../stores/trade-tokens-store';
import { preferencesStore } from '../../stores/preferences-store';
import { GlobalPreferencesPanel } from '../../features/preferences/components/global-preferences-panel';
import { PushPreferencesPanel } from '../../features/push/components/push-preferences-panel';
import { PlatformPreferencesPanel } from '../../features/preferences/components/platform-preferences-panel';
import { WhatIfPanel } from '../../features/what-if/components/what-if-panel';
import { addToken, forgetPinCode, revokeToken, savePinCode } from '../platform-keys';
import { tradesStore } from '../../features/trades/trades-store';
import { whatIfStore } from '../../stores/what-if-store';
import { chargedTakerRate, DEFAULT_TAKER_RATE } from '../../../shared-core/trade-fees';
import type { Trade } from '../../../contracts';
import '../../features/preferences/components/preferences.css';

/**
 * The fee rate of the platform's estimates (issue 36), one source with the what-if replay (issue 42): the rate the
 * server's replay took (the exchange's charge on the trader's newest trade there with a known commission, open or
 * closed: engine/replay-settings.ts) once its answer is here; before, the newest open trade's charged rate, else
 * Binance's base rate (shared-core/trade-fees.ts DEFAULT_TAKER_RATE).
 */
function feeRateOf(
  platformUuid: string,
  trades: Readonly<Record<string, Trade>>,
  replayedRate: string | undefined,
): string {
  if (replayedRate) return replayedRate;
  const newest = Object.values(trades)
    .filter((trade) => trade.platform_uuid === platformUuid)
    .sort((a, b) => b.trade_create_timestamp.localeCompare(a.trade_create_timestamp))
    .map((trade) => chargedTakerRate(trade))
    .find((rate) => rate !== undefined);
  return newest ?? DEFAULT_TAKER_RATE;
}

function PlatformCard({ platform }: { platform: Platform }) {
  const { t } = useTranslation();
  const { token_by_platform_uuid } = useSnapshot(tradeTokensStore);
  const { trade_preferences } = useSnapshot(preferencesStore);
  const { trade_by_uuid_dict } = useSnapshot(tradesStore);
  const { by_platform } = useSnapshot(whatIfStore);
  const level = token_by_platform_uuid[platform.platform_uuid]?.level ?? TradeTokenLevel.NO_TRADE_TOKEN;
  // Server mode, and client mode on an exchange that refuses browsers, reach the exchange from our server.
  const relayed =
    trade_preferences?.trade_in_server_side === TradeSide.SERVER || !platform.platform_allows_browser;
  // Issue 40: the road this platform's exchange requests take, said per platform (Binance refuses browsers).
  const road =
    trade_preferences?.trade_in_server_side === TradeSide.SERVER
      ? 'server'
      : platform.platform_allows_browser
        ? 'direct'
        : 'relay';
  return (
    <section
      className="panel platform-card"
      aria-label={platform.platform_name}
      data-testid="platform-card"
      data-platform-name={platform.platform_name}
    >
      <div className="panel-header">
        <PlatformChip name={platform.platform_name} background={platform.platform_background} />
        <TradeTokenStatusChip level={level} />
      </div>
      <div className="platform-card-body">
        {/* The settings and, under them, what they would have done (issue 42). */}
        <div className="platform-column">
          <PlatformPreferencesPanel
            platform={platform}
            feeRate={feeRateOf(
              platform.platform_uuid,
              trade_by_uuid_dict,
              by_platform[platform.platform_uuid]?.settings.taker_rate,
            )}
          />
          <WhatIfPanel platform={platform} />
        </div>
        <div className="platform-section">
          <h3 className="section-title">{t('pin.title')}</h3>
          <PinCodePanel platformUuid={platform.platform_uuid} onSave={savePinCode} onRemove={forgetPinCode} />
        </div>
        <p className="muted platform-road" data-testid="platform-road" data-road={road}>
          {t(`preferences.road.${road}`)}
        </p>
        <div className="platform-section">
          <h3 className="section-title">{t('trade_token.title')}</h3>
          <TradeTokenPanel platform={platform} onAdd={addToken} onRevoke={revokeToken} />
          <EgressIpNote platform={platform} relayed={relayed} />
        </div>
      </div>
    </section>
  );
}

/**
 * /trade_preferences (SPEC.md §2): global preferences and Notifications (issue 41), then per platform its preferences, PIN and token, then
 * the 'Repair error trades' box.
 */
export function TradePreferencesPage() {
  const { t } = useTranslation();
  const { platform_dict, is_loaded } = useSnapshot(platformsStore);
  const { trade_preferences } = useSnapshot(preferencesStore);
  const platforms = sortedPlatforms(platform_dict);

  useEffect(() => {
    if (!platformsStore.is_loaded) void loadPlatforms();
  }, []);

  const mode = trade_preferences?.trade_in_server_side;
  return (
    <div className="page">
      <div className="page-head">
        <h1 className="page-title">{t('nav.trade_preferences')}</h1>
        {mode !== undefined ? (
          <span className="muted mode-note">
            {mode === TradeSide.SERVER
              ? t('preferences.mode_server_note')
              : t('preferences.mode_client_note')}
          </span>
        ) : null}
      </div>
      <GlobalPreferencesPanel
        after={({ values, edit, saveState }) => (
          <PushPreferencesPanel values={values} edit={edit} saveState={saveState} />
        )}
      />
      {!is_loaded ? (
        <Loader fill />
      ) : (
        <div className="platform-list">
          {platforms.map((platform) => (
            <PlatformCard key={platform.platform_uuid} platform={platform} />
          ))}
        </div>
      )}
      <RepairTradesBox />
    </div>
  );
}
