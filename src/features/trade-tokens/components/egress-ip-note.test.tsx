import '@testing-library/jest-dom/vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import type { Platform } from '../../../../contracts/platforms';
import { initTestI18n } from '../../../testing/i18n-test';
import { getEgressIp } from '../../../stores/api/get-egress-ip';
import { resetTradeTokensStore } from '../../../stores/trade-tokens-store';
import { EgressIpNote } from './egress-ip-note';

vi.mock('../../../stores/api/get-egress-ip', () => ({ getEgressIp: vi.fn() }));

const platform: Platform = {
  platform_uuid: '64a83a9d-c1ba-4000-a482-bb0c4d55af1c',
  platform_name: 'Binance USDⓈ-M',
  platform_background: '#f0b90b',
  level: 3,
  trade_leverage_max: 50,
  platform_url: 'https://fapi.binance.com',
  platform_allows_browser: false,
};

beforeAll(() => initTestI18n());
beforeEach(() => {
  resetTradeTokensStore();
  vi.mocked(getEgressIp).mockReset();
});
afterEach(cleanup);

describe('the address to allow on an IP-restricted key', () => {
  test('shows the server address with a copy button, in English and in Ukrainian', async () => {
    vi.mocked(getEgressIp).mockResolvedValue('203.0.113.7');
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<EgressIpNote platform={platform} relayed />);
    await waitFor(() => expect(screen.getByTestId('egress-ip-value')).toHaveValue('203.0.113.7'));
    expect(screen.getByText('Allow this IP address on the API key')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Copied' })).toBeInTheDocument());
    expect(writeText).toHaveBeenCalledWith('203.0.113.7');
    expect(getEgressIp).toHaveBeenCalledWith(platform.platform_uuid);
    cleanup();
    await initTestI18n('ua');
    render(<EgressIpNote platform={platform} relayed />);
    expect(screen.getByText('Дозвольте цю IP-адресу для API-ключа')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Копіювати' })).toBeInTheDocument();
    await initTestI18n('en');
  });

  test('says when the address is not known, and is not shown when the page calls the exchange itself', async () => {
    vi.mocked(getEgressIp).mockResolvedValue(null);
    const { unmount } = render(<EgressIpNote platform={platform} relayed />);
    await waitFor(() => expect(screen.getByTestId('egress-ip')).toHaveTextContent(/not known yet/));
    unmount();
    render(<EgressIpNote platform={{ ...platform, platform_allows_browser: true }} relayed={false} />);
    expect(screen.queryByTestId('egress-ip')).toBeNull();
  });
});
