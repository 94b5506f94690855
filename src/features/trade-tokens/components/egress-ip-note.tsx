import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { Platform } from '../../../../contracts/platforms';
import { loadEgressIp, tradeTokensStore } from '../../../stores/trade-tokens-store';

/**
 * The address to allow on an IP-restricted API key (docs/relay.md "IP allow-list"): Binance asks for one for
 * futures trading, and the exchange sees our server's address on every request that goes through it (server
 * mode, and client mode through the relay). Shown with a copy button; not shown when the page calls the
 * exchange itself.
 */
export function EgressIpNote({ platform, relayed }: { platform: Platform; relayed: boolean }) {
  const { t } = useTranslation();
  const inputId = useId();
  const uuid = platform.platform_uuid;
  const { egress_ip_by_platform_uuid } = useSnapshot(tradeTokensStore);
  const ip = egress_ip_by_platform_uuid[uuid];
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (relayed) void loadEgressIp(uuid);
  }, [relayed, uuid]);

  if (!relayed) return null;
  if (!ip) {
    return (
      <p className="muted egress-ip" data-testid="egress-ip">
        {t('trade_token.egress_ip.unknown')}
      </p>
    );
  }
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(ip);
      setCopied(true);
    } catch {
      // No clipboard (a page not served over https): the address is selected for the trader to copy.
      (document.getElementById(inputId) as HTMLInputElement | null)?.select();
    }
  };
  return (
    <div className="egress-ip" data-testid="egress-ip">
      <label className="field-label" htmlFor={inputId}>
        {t('trade_token.egress_ip.label')}
      </label>
      <div className="egress-ip-row">
        <input
          id={inputId}
          className="input egress-ip-value"
          readOnly
          value={ip}
          onFocus={(event) => event.currentTarget.select()}
          data-testid="egress-ip-value"
        />
        <button type="button" className="button is-small" onClick={() => void copy()}>
          {copied ? t('trade_token.egress_ip.copied') : t('trade_token.egress_ip.copy')}
        </button>
      </div>
      <p className="muted">{t('trade_token.egress_ip.hint')}</p>
    </div>
  );
}
