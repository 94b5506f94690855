import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { Trade } from '../../../../contracts';
import { platformsStore } from '../../../stores/platforms-store';

/**
 * Which trade is which (issue 39): 'Client' (signed in a browser under the PIN: only a browser holding this
 * platform's token can close it) or 'Server' (placed and closed by the server), and the platform, as a chip on
 * every open trade and history row. The platform's colour is the dot, its name the second word.
 */
export function TradeOrigin({ trade }: { trade: Pick<Trade, 'trade_in_server_side' | 'platform_uuid'> }) {
  const { t } = useTranslation();
  const platform = useSnapshot(platformsStore).platform_dict[trade.platform_uuid];
  const mode = trade.trade_in_server_side === 1 ? 'server' : 'client';
  const name = platform
    ? t(`platform_name.${platform.platform_name}`, { defaultValue: platform.platform_name })
    : undefined;
  const title = [t(`trades.origin.title_${mode}`), name].filter(Boolean).join('\n');
  return (
    <span
      className={`trade-origin is-${mode}`}
      title={title}
      data-testid="trade-origin"
      data-mode={mode}
      style={platform ? { ['--platform-bg' as string]: platform.platform_background } : undefined}
    >
      <span className="trade-origin-dot" aria-hidden="true" />
      <span className="trade-origin-mode">{t(`trades.origin.${mode}`)}</span>
      {name ? <span className="trade-origin-platform">{name}</span> : null}
    </span>
  );
}
