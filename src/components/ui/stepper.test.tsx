import '@testing-library/jest-dom/vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { loadTradeCoreForTests } from '../../testing/load-trade-core';
import { initTestI18n } from '../../testing/i18n-test';
import { clampValue, Stepper, stepValue, type StepperProps } from './stepper';

beforeAll(async () => {
  await loadTradeCoreForTests();
  await initTestI18n();
});
afterEach(cleanup);

function Controlled(props: Omit<StepperProps, 'value' | 'onChange'> & { initial: number }) {
  const [value, setValue] = useState(props.initial);
  return <Stepper {...props} value={value} onChange={setValue} />;
}

const minus = () => screen.getByRole('button', { name: /Decrease/ });
const plus = () => screen.getByRole('button', { name: /Increase/ });
const shown = () => screen.getByTestId('stepper-value').textContent;

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

describe('stepValue / clampValue', () => {
  test('clamps into range', () => {
    expect(clampValue(-1, 0, 10)).toBe(0);
    expect(clampValue(11, 0, 10)).toBe(10);
    expect(stepValue(999.9, 1, 1.5, 1000, 0.25, 2)).toBe(1000);
    expect(stepValue(1.5, -1, 1.5, 1000, 0.25, 2)).toBe(1.5);
    expect(stepValue(0.1, 1, 0, 1, 0.2, 1)).toBe(0.3);
  });
});
