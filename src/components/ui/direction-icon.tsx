import { useTranslation } from 'react-i18next';

/** Direction of SPEC.md §2: up for 1, down for -1, a flat dash otherwise. */
export function DirectionIcon({ direction }: { direction: number }) {
  const { t } = useTranslation();
  if (direction === 1) {
    return (
      <svg
        className="direction-icon is-up"
        viewBox="0 0 12 12"
        width="12"
        height="12"
        role="img"
        aria-label={t('direction.up')}
      >
        <path d="M6 2l4.5 6h-9z" fill="currentColor" />
      </svg>
    );
  }
  if (direction === -1) {
    return (
      <svg
        className="direction-icon is-down"
        viewBox="0 0 12 12"
        width="12"
        height="12"
        role="img"
        aria-label={t('direction.down')}
      >
        <path d="M6 10L1.5 4h9z" fill="currentColor" />
      </svg>
    );
  }
  return (
    <svg
      className="direction-icon is-flat"
      viewBox="0 0 12 12"
      width="12"
      height="12"
      role="img"
      aria-label={t('direction.flat')}
    >
      <path d="M2 6h8" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}
