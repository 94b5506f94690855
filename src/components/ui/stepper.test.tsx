import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { loadTradeCoreForTests } from '../../testing/load-trade-core';
import { initTestI18n } from '../../testing/i18n-test';
import { clampValue, parseTyped, snapValue, Stepper, stepValue, type StepperProps } from './stepper';
import { HOLD_REPEAT_DELAY_MS, HOLD_REPEAT_INTERVAL_MS } from './use-hold-repeat';

beforeAll(async () => {
  await loadTradeCoreForTests();
  await initTestI18n();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function Controlled({
  initial,
  onSaved,
  ...props
}: Omit<StepperProps, 'value' | 'onChange'> & { initial: number; onSaved?: (value: number) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <Stepper
      {...props}
      value={value}
      onChange={(next) => {
        onSaved?.(next);
        setValue(next);
      }}
    />
  );
}

const minus = () => screen.getByRole('button', { name: /Decrease/ });
const plus = () => screen.getByRole('button', { name: /Increase/ });
/** What the control shows: the input's value, or the text of a buttons-only (enumerated) stepper. */
const shown = () => {
  const value = screen.getByTestId('stepper-value');
  return value instanceof HTMLInputElement ? value.value : value.textContent;
};
const MARGIN = { label: 'Margin', min: 1.5, max: 1000, step: 0.25, decimals: 2 } as const;
/** Types `text` into the spinbutton and presses Enter. */
function type(text: string) {
  const input = screen.getByRole('spinbutton');
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value: text } });
  fireEvent.keyDown(input, { key: 'Enter' });
  return input as HTMLInputElement;
}

describe('Stepper', () => {
  test('defaults: min 0, max 10, step 1, 0 decimals; minus disabled at 0', () => {
    render(<Controlled label="Count" initial={0} />);
    expect(shown()).toBe('0');
    expect(minus()).toBeDisabled();
    fireEvent.click(plus());
    expect(shown()).toBe('1');
    expect(minus()).toBeEnabled();
  });

  test('plus is disabled at the maximum and the value never passes it', () => {
    render(<Controlled label="Leverage" initial={19} min={1} max={20} />);
    fireEvent.click(plus());
    expect(shown()).toBe('20');
    expect(plus()).toBeDisabled();
  });

  test('a value outside the range is shown clamped', () => {
    render(
      <Stepper label="Margin" value={5000} onChange={() => undefined} min={1.5} max={1000} decimals={2} />,
    );
    expect(shown()).toBe('1000.00');
    expect(plus()).toBeDisabled();
  });

  test('fixed decimals and fractional steps do not drift', () => {
    render(<Controlled label="Accuracy" initial={60} min={60} max={100} step={0.1} decimals={2} />);
    for (let i = 0; i < 3; i += 1) fireEvent.click(plus());
    expect(shown()).toBe('60.30');
  });

  test('custom labels replace specific values (delay 0 shows OFF)', () => {
    render(<Controlled label="Delay" initial={1} max={60} labels={{ 0: 'OFF' }} />);
    expect(shown()).toBe('1');
    fireEvent.click(minus());
    expect(shown()).toBe('OFF');
  });

  test('the buttons are named after the control', () => {
    render(<Controlled label="Stop loss" initial={5} />);
    expect(screen.getByRole('group', { name: 'Stop loss' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Increase Stop loss' })).toBeInTheDocument();
  });
});

describe('Stepper: a typeable value (issue 39)', () => {
  test('typed 100 into a margin stepper commits on Enter as the 100 the buttons make, shown 100.00', () => {
    const saved = vi.fn();
    render(<Controlled {...MARGIN} initial={10} onSaved={saved} />);
    const input = type('100');
    expect(saved).toHaveBeenCalledExactlyOnceWith(100);
    expect(input.value).toBe('100.00');
    fireEvent.blur(input);
    expect(shown()).toBe('100.00');
    expect(input).toHaveAttribute('aria-valuenow', '100');
    expect(saved).toHaveBeenCalledTimes(1);
  });

  test('a typed value commits on blur, clamped into range and moved to the nearest step', () => {
    const saved = vi.fn();
    render(<Controlled {...MARGIN} initial={10} onSaved={saved} />);
    const input = screen.getByRole('spinbutton');
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: '5000' } });
    expect(saved).not.toHaveBeenCalled();
    fireEvent.blur(input);
    expect(saved).toHaveBeenLastCalledWith(1000);
    expect(shown()).toBe('1000.00');
    expect(plus()).toBeDisabled();
    type('-3');
    expect(saved).toHaveBeenLastCalledWith(1.5);
    type('12,3');
    expect(saved).toHaveBeenLastCalledWith(12.25);
    expect(shown()).toBe('12.25');
  });

  test('a text that is not a number is refused: the last value comes back with a translated message', () => {
    const saved = vi.fn();
    render(<Controlled {...MARGIN} initial={10} onSaved={saved} />);
    const input = type('12abc');
    expect(saved).not.toHaveBeenCalled();
    expect(input.value).toBe('10.00');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    const message = screen.getByRole('alert');
    expect(message).toHaveTextContent(
      'Not a number: Margin needs a number from 1.50 to 1000.00, so it keeps its last value',
    );
    expect(input).toHaveAccessibleDescription(message.textContent!);
    // Leaving the field keeps the message; Escape drops it.
    fireEvent.blur(input);
    expect(screen.getByRole('alert')).toBeInTheDocument();
    fireEvent.focus(input);
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByRole('alert')).toBeNull();
    type('abc');
    // A good value clears the message.
    type('20');
    expect(saved).toHaveBeenLastCalledWith(20);
    expect(input).toHaveAttribute('aria-invalid', 'false');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  test('ArrowUp / ArrowDown step on the input, Home / End go to the bounds, Escape drops the typing', () => {
    const saved = vi.fn();
    render(
      <Controlled label="Accuracy" initial={60} min={60} max={100} step={0.1} decimals={2} onSaved={saved} />,
    );
    const input = screen.getByRole('spinbutton', { name: 'Accuracy' }) as HTMLInputElement;
    fireEvent.focus(input);
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    expect(saved).toHaveBeenLastCalledWith(60.2);
    expect(input.value).toBe('60.20');
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(saved).toHaveBeenLastCalledWith(60.1);
    fireEvent.keyDown(input, { key: 'End' });
    expect(saved).toHaveBeenLastCalledWith(100);
    fireEvent.keyDown(input, { key: 'Home' });
    expect(saved).toHaveBeenLastCalledWith(60);
    fireEvent.change(input, { target: { value: '75' } });
    fireEvent.keyDown(input, { key: 'Escape' });
    fireEvent.blur(input);
    expect(saved).toHaveBeenLastCalledWith(60);
    expect(shown()).toBe('60.00');
  });

  test('the input is a named spinbutton with its range and value', () => {
    render(<Controlled {...MARGIN} initial={10} />);
    const input = screen.getByRole('spinbutton', { name: 'Margin' });
    expect(input).toHaveAttribute('aria-valuemin', '1.5');
    expect(input).toHaveAttribute('aria-valuemax', '1000');
    expect(input).toHaveAttribute('aria-valuenow', '10');
  });

  test('holding a button repeats it until released; the click that ends the hold adds no step', () => {
    vi.useFakeTimers();
    const saved = vi.fn();
    render(<Controlled label="Leverage" initial={1} min={1} max={125} onSaved={saved} />);
    fireEvent.pointerDown(plus(), { button: 0 });
    act(() => vi.advanceTimersByTime(HOLD_REPEAT_DELAY_MS + 4 * HOLD_REPEAT_INTERVAL_MS));
    expect(shown()).toBe('6');
    fireEvent.pointerUp(window);
    fireEvent.click(plus());
    act(() => vi.advanceTimersByTime(10 * HOLD_REPEAT_INTERVAL_MS));
    expect(shown()).toBe('6');
    // A short press is one click, one step.
    fireEvent.pointerDown(minus(), { button: 0 });
    fireEvent.pointerUp(window);
    fireEvent.click(minus());
    expect(shown()).toBe('5');
  });

  test('a hold released off the button does not swallow the next click', () => {
    vi.useFakeTimers();
    render(<Controlled label="Leverage" initial={1} min={1} max={125} />);
    fireEvent.pointerDown(plus(), { button: 0 });
    act(() => vi.advanceTimersByTime(HOLD_REPEAT_DELAY_MS));
    expect(shown()).toBe('2');
    fireEvent.pointerUp(window);
    act(() => vi.advanceTimersByTime(HOLD_REPEAT_INTERVAL_MS));
    fireEvent.click(plus());
    expect(shown()).toBe('3');
  });

  test('a hold stops at the bound', () => {
    vi.useFakeTimers();
    render(<Controlled label="Delay" initial={58} max={60} />);
    fireEvent.pointerDown(plus(), { button: 0 });
    act(() => vi.advanceTimersByTime(HOLD_REPEAT_DELAY_MS + 10 * HOLD_REPEAT_INTERVAL_MS));
    expect(shown()).toBe('60');
    expect(plus()).toBeDisabled();
  });

  test('a label for some values (delay 0 is OFF) shows while not focused; focused, the number; "off" can be typed', () => {
    const saved = vi.fn();
    render(<Controlled label="Delay" initial={0} max={60} labels={{ 0: 'OFF' }} onSaved={saved} />);
    const input = screen.getByRole('spinbutton', { name: 'Delay' }) as HTMLInputElement;
    expect(input.value).toBe('OFF');
    expect(input).toHaveAttribute('aria-valuetext', 'OFF');
    fireEvent.focus(input);
    expect(input.value).toBe('0');
    fireEvent.change(input, { target: { value: '30' } });
    fireEvent.blur(input);
    expect(saved).toHaveBeenLastCalledWith(30);
    expect(input.value).toBe('30');
    type('off');
    expect(saved).toHaveBeenLastCalledWith(0);
    fireEvent.blur(input);
    expect(input.value).toBe('OFF');
  });

  test('a stepper whose every value has a label (Client / Server) keeps the buttons-only display', () => {
    render(<Controlled label="Trade side" initial={0} max={1} labels={{ 0: 'Client', 1: 'Server' }} />);
    expect(screen.queryByRole('spinbutton')).toBeNull();
    expect(shown()).toBe('Client');
    fireEvent.click(plus());
    expect(shown()).toBe('Server');
  });
});

describe('parseTyped / snapValue', () => {
  const margin = { min: 1.5, max: 1000, step: 0.25, decimals: 2 };
  test('numbers, with a point or a comma, snapped to the step grid from min and clamped', () => {
    expect(parseTyped('100', margin)).toBe(100);
    expect(parseTyped(' 1 000 ', margin)).toBe(1000);
    expect(parseTyped('12,5', margin)).toBe(12.5);
    expect(parseTyped('.5', margin)).toBe(1.5);
    expect(parseTyped('+7.1', margin)).toBe(7);
    expect(snapValue(73.44, 60, 100, 0.1, 2)).toBe(73.4);
    expect(snapValue(1e9, 1, 20, 1, 0)).toBe(20);
  });
  test('not numbers', () => {
    for (const text of ['', 'abc', '1.2.3', '1e3', '12$', '--1', 'NaN', 'Infinity']) {
      expect(parseTyped(text, margin)).toBeUndefined();
    }
  });
  test('a custom label may be typed, in any case', () => {
    expect(parseTyped('Off', { min: 0, max: 60, step: 1, decimals: 0 }, { 0: 'OFF' })).toBe(0);
  });
});

describe('stepValue / clampValue', () => {
  test('clamps into range', () => {
    expect(clampValue(-1, 0, 10)).toBe(0);
    expect(clampValue(11, 0, 10)).toBe(10);
    expect(stepValue(999.9, 1, 1.5, 1000, 0.25, 2)).toBe(1000);
    expect(stepValue(1.5, -1, 1.5, 1000, 0.25, 2)).toBe(1.5);
    expect(stepValue(0.1, 1, 0, 1, 0.2, 1)).toBe(0.3);
  });
});
