import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { BALANCE_DECIMALS } from '../../../config/constants';
import { formatFixed } from '../../../lib/format';
import { PlatformChip } from '../../../components/ui';
import { platformsStore, sortedPlatforms } from '../../../stores/platforms-store';
import { balancesStore, totalMarginBalance } from '../balances-store';

/** Per-platform balances and their sum (SPEC.md §3 Account balance). */
export function BalancesModalContent() {
  const { t } = useTranslation();
  const { platform_dict } = useSnapshot(platformsStore);
  const { balance_by_platform_uuid, error_by_platform_uuid } = useSnapshot(balancesStore);
  const platforms = sortedPlatforms(platform_dict);
  const money = (value: number | string) => `${formatFixed(value, BALANCE_DECIMALS)} $`;
  return (
    <div className="balances">
      <ul className="balances-list">
        {platforms.map((platform) => {
          const balance = balance_by_platform_uuid[platform.platform_uuid];
          return (
            <li key={platform.platform_uuid} className="balances-item" data-testid="balance-item">
              <div className="balances-item-head">
                <PlatformChip name={platform.platform_name} background={platform.platform_background} />
                <span className="balances-amount numeric">
                  {balance ? money(balance.total_margin_balance) : '—'}
                </span>
              </div>
              {balance ? (
                <dl className="balances-details">
                  <dt>{t('balance.available_balance')}</dt>
                  <dd className="numeric">{money(balance.available_balance)}</dd>
                  <dt>{t('balance.total_wallet_balance')}</dt>
                  <dd className="numeric">{money(balance.total_wallet_balance)}</dd>
                  <dt>{t('balance.total_unrealized_profit')}</dt>
                  <dd className="numeric">{money(balance.total_unrealized_profit)}</dd>
                </dl>
              ) : error_by_platform_uuid[platform.platform_uuid] ? (
                <p className="balances-hint balances-failure" role="alert" data-testid="balance-failure">
                  {t('balance.read_failed', { line: error_by_platform_uuid[platform.platform_uuid] })}
                </p>
              ) : (
                <p className="muted balances-hint">{t('balance.not_available')}</p>
              )}
            </li>
          );
        })}
      </ul>
      <div className="balances-total">
        <span>{t('balance.total')}</span>
        <span className="numeric" data-testid="balance-total">
          {money(totalMarginBalance(balance_by_platform_uuid))}
        </span>
      </div>
    </div>
  );
}
