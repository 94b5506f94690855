import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/i18n';

export interface DayPickerProps {
  /** 'Start day' or 'End day': the group's name. */
  label: string;
  /** ISO string of a moment of the shown day; the day is the local one. */
  value: string | undefined;
  onPrevious: () => void;
  onNext: () => void;
  /** The day label resets to today on click (SPEC.md §2 "Analysis"). */
  onToday: () => void;
  /** The next-day button is off when the next day would be in the future. */
  isNextDisabled?: boolean;
  testId?: string;
}

const ARROW_PATHS = { previous: 'M12.5 4.5L7 10l5.5 5.5', next: 'M7.5 4.5L13 10l-5.5 5.5' } as const;

function Arrow({ direction }: { direction: keyof typeof ARROW_PATHS }) {
  return (
    <svg width="16" height="16" viewBox="0 0 20 20" aria-hidden="true">
      <path d={ARROW_PATHS[direction]} fill="none" stroke="currentColor" strokeWidth="1.8" />
    </svg>
  );
}

/** A day with previous-day and next-day buttons; each click moves exactly one day. */
export function DayPicker({
  label,
  value,
  onPrevious,
  onNext,
  onToday,
  isNextDisabled = false,
  testId,
}: DayPickerProps) {
  const { t } = useTranslation('insights');
  const day = value ? formatDate('weekday_day', new Date(value)) : t('analysis.no_day');
  return (
    <div className="day-picker" role="group" aria-label={label} data-testid={testId}>
      <span className="day-picker-label" aria-hidden="true">
        {label}
      </span>
      <div className="day-picker-controls">
        <button
          type="button"
          className="icon-button"
          aria-label={t('analysis.previous_day')}
          title={t('analysis.previous_day')}
          onClick={onPrevious}
        >
          <Arrow direction="previous" />
        </button>
        <button
          type="button"
          className="button day-picker-day numeric"
          title={t('analysis.today_hint')}
          onClick={onToday}
        >
          {day}
        </button>
        <button
          type="button"
          className="icon-button"
          aria-label={t('analysis.next_day')}
          title={t('analysis.next_day')}
          onClick={onNext}
          disabled={isNextDisabled}
        >
          <Arrow direction="next" />
        </button>
      </div>
    </div>
  );
}
