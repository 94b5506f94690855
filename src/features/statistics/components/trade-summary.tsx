import { useTranslation } from 'react-i18next';
import { formatFixed } from '../../../lib/format';
import { ROE_DECIMALS, tradeTotals, type TradeFigures } from '../statistics-format';

/**
 * The text lines of 'Statistic Trade By Now' and 'Statistic Trade By Yesterday' (SPEC.md §2): ROE as percents
 * with 2 decimals, Total ROE = buy + sell computed exactly, and the counts.
 */
export function TradeSummary({ figures, testId }: { figures: TradeFigures; testId: string }) {
  const { t } = useTranslation('insights');
  const { total_roe, total_count } = tradeTotals(figures);
  const percent = (value: number | string) => `${formatFixed(value, ROE_DECIMALS)} %`;
  const tone = (value: number | string) => {
    const sign = Math.sign(Number(value));
    return sign > 0 ? 'is-positive' : sign < 0 ? 'is-negative' : '';
  };
  const lines = [
    { key: 'total-roe', label: t('dashboard.total_roe'), value: percent(total_roe), tone: tone(total_roe) },
    {
      key: 'buy-roe',
      label: t('dashboard.buy_roe'),
      value: percent(figures.roe_buy),
      tone: tone(figures.roe_buy),
      swatch: 'is-roe-buy',
    },
    {
      key: 'sell-roe',
      label: t('dashboard.sell_roe'),
      value: percent(figures.roe_sell),
      tone: tone(figures.roe_sell),
      swatch: 'is-roe-sell',
    },
    { key: 'total-count', label: t('dashboard.total_count'), value: String(total_count) },
    {
      key: 'buy-count',
      label: t('dashboard.buy_count'),
      value: String(figures.count_buy),
      swatch: 'is-count-buy',
    },
    {
      key: 'sell-count',
      label: t('dashboard.sell_count'),
      value: String(figures.count_sell),
      swatch: 'is-count-sell',
    },
  ];
  return (
    <dl className="statistics-summary" data-testid={testId}>
      {lines.map((line) => (
        <div key={line.key} className="statistics-summary-line" data-testid={`${testId}-${line.key}`}>
          <dt className={line.swatch ? `statistics-swatch ${line.swatch}` : undefined}>{line.label}</dt>
          <dd className={`numeric ${line.tone ?? ''}`.trim()}>{line.value}</dd>
        </div>
      ))}
    </dl>
  );
}
