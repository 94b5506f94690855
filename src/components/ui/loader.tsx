import { useTranslation } from 'react-i18next';

/** A spinner with an accessible 'Loading' status; `fill` centres it in its container. */
export function Loader({ fill = false, size = 20 }: { fill?: boolean; size?: number }) {
  const { t } = useTranslation();
  return (
    <div className={fill ? 'loader is-fill' : 'loader'} role="status" aria-label={t('common.loading')}>
      <span className="loader-spinner" style={{ width: size, height: size }} />
    </div>
  );
}
