import { useTranslation } from 'react-i18next';
import { Chip, Palette } from '../../../components/ui';
import { TradeTokenLevel } from '../../../stores/token-level';

const LEVEL_CHIP: Readonly<Record<TradeTokenLevel, { key: string; palette: Palette }>> = {
  [TradeTokenLevel.TRADE_AVAILABLE]: { key: 'trade_token.status.available', palette: Palette.GREEN },
  [TradeTokenLevel.WRONG_PIN_CODE]: { key: 'trade_token.status.wrong_pin_code', palette: Palette.ORANGE },
  [TradeTokenLevel.NO_PIN_CODE]: { key: 'trade_token.status.no_pin_code', palette: Palette.GRAY },
  [TradeTokenLevel.NO_TRADE_TOKEN]: { key: 'trade_token.status.no_trade_token', palette: Palette.RED },
};

/** Status chip of SPEC.md §2: green AVAILABLE, orange WRONG PIN CODE, gray NO PIN CODE, red NO TRADE TOKEN. */
export function TradeTokenStatusChip({ level }: { level: TradeTokenLevel }) {
  const { t } = useTranslation();
  const chip = LEVEL_CHIP[level];
  return (
    <Chip palette={chip.palette} testId="trade-token-status" title={t('trade_token.status.title')}>
      {t(chip.key)}
    </Chip>
  );
}
