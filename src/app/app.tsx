import { Suspense, useEffect } from 'react';
import { createBrowserRouter, Navigate, RouterProvider, type RouteObject } from 'react-router-dom';
import { Loader } from '../components/ui';
import { BITCOIN_REFRESH_MS } from '../config/constants';
import { AnalysisPage } from './routes/analysis-page';
import { ProfilePage } from './routes/profile-page';
import { loadBitcoinInformation } from '../features/bitcoin/bitcoin-store';
import { HistoryPage } from './routes/history-page';
import { TradePreferencesPage } from './routes/trade-preferences-page';
import { TradingPage } from './routes/trading-page';
import { ErrorPage } from './error-page';
import { Layout } from './layout';
import { AboutPage } from './routes/about-page';
import { MainPage } from './routes/main-page';
import { NotFoundPage } from './routes/not-found-page';
import { ProtectedRoute } from './protected-route';
import { removeCardsOfTradedSignals } from './signal-trading';
import { lazyChunk } from '../lib/lazy-chunk';

// The dashboard and its nivo charts are lazy chunks, outside the initial bundle.
const DashboardPage = lazyChunk(() =>
  import('./routes/dashboard-page').then((module) => ({
    default: module.DashboardPage,
  })),
);

/** The routes of SPEC.md §2: unknown paths go to /404, protected ones to / without a user. */
export const ROUTES: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <ErrorPage />,
    children: [
      {
        errorElement: <ErrorPage />,
        children: [
          { path: '/', element: <MainPage /> },
          { path: '/about', element: <AboutPage /> },
          { path: '/404', element: <NotFoundPage /> },
          {
            path: '/profile',
            element: (
              <ProtectedRoute>
                <ProfilePage />
              </ProtectedRoute>
            ),
          },
          {
            path: '/trading',
            element: (
              <ProtectedRoute>
                <TradingPage />
              </ProtectedRoute>
            ),
          },
          {
            path: '/trade_preferences',
            element: (
              <ProtectedRoute>
                <TradePreferencesPage />
              </ProtectedRoute>
            ),
          },
          {
            path: '/trade_history',
            element: (
              <ProtectedRoute>
                <HistoryPage />
              </ProtectedRoute>
            ),
          },
          {
            path: '/dashboard',
            element: (
              <ProtectedRoute>
                <Suspense fallback={<Loader fill />}>
                  <DashboardPage />
                </Suspense>
              </ProtectedRoute>
            ),
          },
          {
            path: '/analysis',
            element: (
              <ProtectedRoute>
                <AnalysisPage />
              </ProtectedRoute>
            ),
          },
          { path: '*', element: <Navigate to="/404" replace /> },
        ],
      },
    ],
  },
];

// The rules across features that no page holds (app/signal-trading.ts).
removeCardsOfTradedSignals();

const router = createBrowserRouter(ROUTES);

export function App() {
  useEffect(() => {
    void loadBitcoinInformation();
    const timer = setInterval(() => void loadBitcoinInformation(), BITCOIN_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  return <RouterProvider router={router} />;
}
