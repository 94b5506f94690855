import '@testing-library/jest-dom/vitest';
import { render, screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { useAfterPaint } from './use-after-paint';

function Probe() {
  return <p data-testid="probe">{useAfterPaint() ? 'chart' : 'loader'}</p>;
}

test('the first render and its paint come before the heavy part, which follows by itself', async () => {
  render(<Probe />);
  expect(screen.getByTestId('probe')).toHaveTextContent('loader');
  expect(await screen.findByText('chart')).toBeInTheDocument();
});
