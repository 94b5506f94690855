import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  STEPPER_DEFAULT_DECIMALS,
  STEPPER_DEFAULT_MAX,
  STEPPER_DEFAULT_MIN,
  STEPPER_DEFAULT_STEP,
} from '../../config/constants';
import { formatFixed } from '../../lib/format';
import { useHoldRepeat } from './use-hold-repeat';
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

/**
 * A typed value as the buttons would have made it: clamped into range, then moved to the nearest step counted
 * from `min` (the grid the server checks, contracts/preferences.ts isOnStep), with the same decimals snapping
 * as stepValue, so typed "100" in a margin stepper is the 100 that 394 clicks of +0.25 from 1.5 make.
 */
export function snapValue(value: number, min: number, max: number, step: number, decimals: number): number {
  const places = Math.max(decimalsOf(step), decimalsOf(min), decimals);
  const steps = Math.round((clampValue(value, min, max) - min) / step);
  return clampValue(Number((min + steps * step).toFixed(places)), min, max);
}

/** A typed number: digits with an optional decimal point or comma (a Ukrainian keyboard types "12,5"). */
const typedNumber = z
  .string()
  .transform((text) => text.replace(/\s/g, '').replace(',', '.'))
  .pipe(z.string().regex(/^[+-]?(\d+\.?\d*|\.\d+)$/))
  .transform(Number);

/**
 * The typed text as a stepper value, or undefined when it is not a number. A custom label may be typed too
 * ("off" for a delay's 0).
 */
export function parseTyped(
  text: string,
  bounds: { min: number; max: number; step: number; decimals: number },
  labels?: Readonly<Record<number, string>>,
): number | undefined {
  const typed = text.trim().toLowerCase();
  const labelled = Object.entries(labels ?? {}).find(([, name]) => name.toLowerCase() === typed);
  if (labelled) return Number(labelled[0]);
  const parsed = typedNumber.safeParse(text);
  if (!parsed.success) return undefined;
  return snapValue(parsed.data, bounds.min, bounds.max, bounds.step, bounds.decimals);
}

/** Whether every value the stepper can take has a custom label (Client / Server, ON / OFF). */
function isEnumerated(
  labels: Readonly<Record<number, string>> | undefined,
  bounds: { min: number; max: number; step: number; decimals: number },
): boolean {
  if (!labels) return false;
  const count = Math.round((bounds.max - bounds.min) / bounds.step) + 1;
  if (count > Object.keys(labels).length) return false;
  return Array.from({ length: count }, (_, i) =>
    stepValue(bounds.min, i, bounds.min, bounds.max, bounds.step, bounds.decimals),
  ).every((value) => labels[value] !== undefined);
}

/**
 * Minus button, central value, plus button (SPEC.md §2 "Stepper control"). The value is a typeable spinbutton
 * (issue 39: margin 10 → 100 was 360 clicks): committed on Enter or blur, clamped and snapped to the step like
 * the buttons; a text that is not a number is refused (the last value comes back, with a translated message and
 * aria-invalid). ArrowUp / ArrowDown step, PageUp / PageDown step ten times, Home / End go to the bounds, Escape
 * drops the typing; holding a button repeats it.
 *
 * Custom labels: a stepper whose every value has a label (Client / Server, ON / OFF) has nothing to type, so it
 * keeps the buttons-only display of the label. A stepper with labels for some values (a delay's 0 is OFF) shows
 * the label while not focused and the number while focused; typing the label ("off") works too.
 *
 * Not react-hook-form: the stepper is one field whose value belongs to its parent's form (the preferences'
 * debounced save), so a form here would be a second copy of that value. The typed text is parsed with zod.
 */
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
  const errorId = useId();
  const bounds = { min, max, step, decimals };
  const current = clampValue(value, min, max);
  const number = formatFixed(current, decimals);
  const shown = labels?.[current] ?? number;
  const atMin = current <= min;
  const atMax = current >= max;
  // What is being typed; undefined while the input is not being edited.
  const [text, setText] = useState<string>();
  const [isInvalid, setIsInvalid] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const isEditing = text !== undefined;
  // Focus selects the whole value, so typing replaces it (after the label, e.g. OFF, became the number).
  useEffect(() => {
    if (isEditing) input.current?.select();
  }, [isEditing]);

  // The value the held button steps from: the parent's value may not have re-rendered between two repeats.
  const latest = useRef(current);
  useEffect(() => {
    latest.current = current;
  }, [current]);

  const change = (next: number) => {
    setIsInvalid(false);
    latest.current = next;
    if (next !== current) onChange(next);
  };
  const stepBy = (delta: number) => change(stepValue(latest.current, delta, min, max, step, decimals));

  const minus = useHoldRepeat(() => {
    stepBy(-1);
    return latest.current > min;
  });
  const plus = useHoldRepeat(() => {
    stepBy(1);
    return latest.current < max;
  });

  /** Commits the typed text: the parsed value, or the last value back when it is not a number. */
  const commit = (): number => {
    // Text left as it was is no edit: leaving a refused field keeps its message.
    if (text === undefined || text === number) return current;
    const parsed = parseTyped(text, bounds, labels);
    if (parsed === undefined) {
      setIsInvalid(true);
      return current;
    }
    change(parsed);
    return parsed;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const moves: Record<string, (base: number) => number> = {
      ArrowUp: (base) => stepValue(base, 1, min, max, step, decimals),
      ArrowDown: (base) => stepValue(base, -1, min, max, step, decimals),
      PageUp: (base) => stepValue(base, 10, min, max, step, decimals),
      PageDown: (base) => stepValue(base, -10, min, max, step, decimals),
      Home: () => min,
      End: () => max,
    };
    const move = moves[event.key];
    if (event.key === 'Enter') {
      event.preventDefault();
      setText(formatFixed(commit(), decimals));
    } else if (event.key === 'Escape') {
      setIsInvalid(false);
      setText(number);
    } else if (move) {
      event.preventDefault();
      const next = move(commit());
      change(next);
      setText(formatFixed(next, decimals));
    }
  };

  const minusButton = (
    <button
      type="button"
      className="stepper-button"
      aria-label={t('stepper.decrease', { name: label })}
      disabled={disabled || atMin}
      onPointerDown={(event) => event.button === 0 && minus.start()}
      onPointerLeave={minus.stop}
      onClick={() => (minus.wasHeld() ? undefined : stepBy(-1))}
    >
      −
    </button>
  );
  const plusButton = (
    <button
      type="button"
      className="stepper-button"
      aria-label={t('stepper.increase', { name: label })}
      disabled={disabled || atMax}
      onPointerDown={(event) => event.button === 0 && plus.start()}
      onPointerLeave={plus.stop}
      onClick={() => (plus.wasHeld() ? undefined : stepBy(1))}
    >
      +
    </button>
  );

  if (isEnumerated(labels, bounds)) {
    return (
      <div className="stepper" role="group" aria-labelledby={labelId}>
        <span id={labelId} className="visually-hidden">
          {label}
        </span>
        {minusButton}
        <output className="stepper-value" aria-live="polite" data-testid="stepper-value">
          {shown}
        </output>
        {plusButton}
      </div>
    );
  }

  return (
    <div className="stepper-field">
      <div className="stepper" role="group" aria-labelledby={labelId}>
        <span id={labelId} className="visually-hidden">
          {label}
        </span>
        {minusButton}
        <input
          className="stepper-value stepper-input"
          type="text"
          inputMode="decimal"
          role="spinbutton"
          autoComplete="off"
          spellCheck={false}
          aria-labelledby={labelId}
          aria-valuemin={min}
          aria-valuemax={max}
          aria-valuenow={current}
          aria-valuetext={shown}
          aria-invalid={isInvalid}
          aria-describedby={isInvalid ? errorId : undefined}
          disabled={disabled}
          value={text ?? shown}
          data-testid="stepper-value"
          ref={input}
          onFocus={() => setText(number)}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          onBlur={() => {
            commit();
            setText(undefined);
          }}
        />
        {plusButton}
      </div>
      {/* The committed value, announced when a button (which holds the focus) changes it. */}
      <span className="visually-hidden" aria-live="polite">
        {shown}
      </span>
      {isInvalid ? (
        <span id={errorId} className="stepper-error" role="alert" data-testid="stepper-error">
          {t('stepper.not_a_number', {
            name: label,
            min: formatFixed(min, decimals),
            max: formatFixed(max, decimals),
          })}
        </span>
      ) : null}
    </div>
  );
}
