import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { BALANCE_DECIMALS } from '../../../config/constants';
import { Loader, Modal, ModalSize } from '../../../components/ui';
import { formatFixed } from '../../../lib/format';
import { authStore } from '../../../stores/auth-store';
import { platformsStore } from '../../../stores/platforms-store';
import { TradeTokenLevel } from '../../../stores/token-level';
import { tradeTokensStore } from '../../../stores/trade-tokens-store';
import { balancesStore, totalMarginBalance } from '../balances-store';
import './balances.css';
import { lazyChunk } from '../../../lib/lazy-chunk';

const BalancesModalContent = lazyChunk(() =>
  import('./balances-modal-content').then((module) => ({ default: module.BalancesModalContent })),
);

/**
 * Header widget: the summed total_margin_balance with 2 decimals and ' $' (SPEC.md §2). Shown to a logged-in
 * user once the platform list is loaded; opens the small 'Accounts Balance' modal with lazy content.
 */
export function BalanceWidget() {
  const { t } = useTranslation();
  const { user } = useSnapshot(authStore);
  const { is_loaded } = useSnapshot(platformsStore);
  const { balance_by_platform_uuid, error_by_platform_uuid } = useSnapshot(balancesStore);
  const { platform_dict } = useSnapshot(platformsStore);
  const { token_by_platform_uuid } = useSnapshot(tradeTokensStore);
  const [isOpen, setIsOpen] = useState(false);
  if (!user || !is_loaded) return null;
  // A read that failed says why (issue 36); with no balance read at all the sum is unknown, not 0.00.
  const failures = Object.entries(error_by_platform_uuid).map(
    ([uuid, text]) => `${platformsStore.platform_dict[uuid]?.platform_name ?? uuid}: ${text}`,
  );
  // Issue 53: a token locked until its PIN is typed (after every reload) has a balance nobody read: unknown,
  // not an empty account.
  const locked = Object.values(platform_dict)
    .filter((platform) => {
      const level = token_by_platform_uuid[platform.platform_uuid]?.level ?? platform.level;
      const isLocked = level === TradeTokenLevel.NO_PIN_CODE || level === TradeTokenLevel.WRONG_PIN_CODE;
      return isLocked && !balance_by_platform_uuid[platform.platform_uuid];
    })
    .map((platform) => platform.platform_name);
  const known = Object.keys(balance_by_platform_uuid).length > 0;
  const total =
    (failures.length > 0 || locked.length > 0) && !known
      ? '—'
      : formatFixed(totalMarginBalance(balance_by_platform_uuid), BALANCE_DECIMALS);
  return (
    <>
      <button
        type="button"
        className={
          failures.length > 0 ? 'header-chip balance-widget is-failed' : 'header-chip balance-widget'
        }
        title={[
          t('balance.title'),
          ...failures.map((line) => t('balance.read_failed', { line })),
          ...locked.map((platform) => t('balance.locked', { platform })),
        ].join('\n')}
        data-failed={failures.length > 0 || undefined}
        onClick={() => setIsOpen(true)}
        data-testid="balance-widget"
      >
        <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
          <rect
            x="1.5"
            y="3.5"
            width="13"
            height="10"
            rx="2"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.4"
          />
          <path d="M10.5 8.5h2" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
          <path
            d="M3.5 3.5l7-2v2"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.4"
            strokeLinejoin="round"
          />
        </svg>
        <span className="numeric">{total} $</span>
      </button>
      <Modal isOpen={isOpen} onClose={() => setIsOpen(false)} title={t('balance.title')} size={ModalSize.S}>
        <Suspense fallback={<Loader fill />}>
          <BalancesModalContent />
        </Suspense>
      </Modal>
    </>
  );
}
