import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import {
  STEPPER_DEFAULT_DECIMALS,
  STEPPER_DEFAULT_MAX,
  STEPPER_DEFAULT_MIN,
  STEPPER_DEFAULT_STEP,
} from '../../config/constants';
import { formatFixed } from '../../lib/format';
import './stepper.css';

export interface StepperProps {
  /** Accessible name of the control (the preference it edits). */
  label: string;
  value: number;
  onChange: (value: number) => void;
  min?: number;
  max?: number;
  step?: number;
  /** Fixed decimals of the shown value. */
  decimals?: number;
  /** Custom texts for specific values, e.g. { 0: 'OFF' }. */
  labels?: Readonly<Record<number, string>>;
  disabled?: boolean;
}

function decimalsOf(value: number): number {
  const text = String(value);
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/** Clamps `value` into [min, max] (SPEC.md §5: values are clamped to the range). */
export function clampValue(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/**
 * Moves `value` by `delta` steps and clamps. The sum is snapped to the finer of the step's and the display's
 * decimals so repeated 0.1 steps do not drift (60 + 0.1 + 0.1 is 60.2, not 60.199999…).
 */
export function stepValue(
  value: number,
  delta: number,
  min: number,
  max: number,
  step: number,
  decimals: number,
) {
  const places = Math.max(decimalsOf(step), decimals);
  const next = Number((value + delta * step).toFixed(places));
  return clampValue(next, min, max);
}

/** Minus button, central value, plus button (SPEC.md §2 "Stepper control"). */
export function Stepper({
  label,
  value,
  onChange,
  min = STEPPER_DEFAULT_MIN,
  max = STEPPER_DEFAULT_MAX,
  step = STEPPER_DEFAULT_STEP,
  decimals = STEPPER_DEFAULT_DECIMALS,
  labels,
  disabled = false,
}: StepperProps) {
  const { t } = useTranslation();
  const labelId = useId();
  const current = clampValue(value, min, max);
  const custom = labels?.[current];
  const shown = custom ?? formatFixed(current, decimals);
  const atMin = current <= min;
  const atMax = current >= max;
  return (
    <div className="stepper" role="group" aria-labelledby={labelId}>
      <span id={labelId} className="visually-hidden">
        {label}
      </span>
      <button
        type="button"
        className="stepper-button"
        aria-label={t('stepper.decrease', { name: label })}
        disabled={disabled || atMin}
        onClick={() => onChange(stepValue(current, -1, min, max, step, decimals))}
      >
        −
      </button>
      <output className="stepper-value" aria-live="polite" data-testid="stepper-value">
        {shown}
      </output>
      <button
        type="button"
        className="stepper-button"
        aria-label={t('stepper.increase', { name: label })}
        disabled={disabled || atMax}
        onClick={() => onChange(stepValue(current, 1, min, max, step, decimals))}
      >
        +
      </button>
    </div>
  );
}
