/** Sidebar links of SPEC.md §2, in order; protected ones show only to a logged-in user. Icons are SVG paths. */
export const NAV_ITEMS = [
  { path: '/', labelKey: 'nav.main', isProtected: false, icon: 'M3.5 9L10 3.5 16.5 9v7.5h-4.5v-5h-4v5H3.5z' },
  {
    path: '/about',
    labelKey: 'nav.about',
    isProtected: false,
    icon: 'M10 17a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM10 9v4.5M10 6.5v.01',
  },
  { path: '/trading', labelKey: 'nav.trading', isProtected: true, icon: 'M3 15l4.5-5 3 3L17 6M13 6h4v4' },
  {
    path: '/trade_preferences',
    labelKey: 'nav.trade_preferences',
    isProtected: true,
    icon: 'M4 5.5h12M4 10h12M4 14.5h12M7 4v3M13 8.5v3M9 13v3',
  },
  {
    path: '/trade_history',
    labelKey: 'nav.trade_history',
    isProtected: true,
    icon: 'M10 17a7 7 0 1 0-7-7M10 6v4l2.5 2.5M3 6.5V10h3.5',
  },
  {
    path: '/dashboard',
    labelKey: 'nav.dashboard',
    isProtected: true,
    icon: 'M3.5 3.5h5v6h-5zM11.5 3.5h5v3h-5zM11.5 9.5h5v7h-5zM3.5 12.5h5v4h-5z',
  },
  {
    path: '/analysis',
    labelKey: 'nav.analysis',
    isProtected: true,
    icon: 'M3.5 16.5h13M5.5 13l3-4 3 2.5 4-6',
  },
] as const;
