// A detail modal that lives in the address (?trade_detail_uuid=…, ?signal_detail_uuid=…; SPEC.md §2): its
// value, and stable functions that open and close it. The navigation is flushed synchronously instead of as
// a React transition: on /trading the live prices re-render rows many times a second, and a transition that
// every such update interrupts and restarts showed the modal seconds after the click (bench/spa/trading.ts).
import { useCallback, useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';

export function useDetailParam(name: string): {
  value: string | undefined;
  open: (value: string) => void;
  close: () => void;
} {
  const [searchParams, setSearchParams] = useSearchParams();
  // React Router gives a new setter whenever the query changes; callbacks that depended on it would change
  // with every open and close and redraw every memoised row that holds one (500 rows: seconds).
  const setter = useRef(setSearchParams);
  useEffect(() => {
    setter.current = setSearchParams;
  }, [setSearchParams]);
  const update = useCallback(
    (value: string | undefined) =>
      setter.current(
        (params) => {
          const next = new URLSearchParams(params);
          if (value === undefined) next.delete(name);
          else next.set(name, value);
          return next;
        },
        { flushSync: true },
      ),
    [name],
  );
  const open = useCallback((value: string) => update(value), [update]);
  const close = useCallback(() => update(undefined), [update]);
  return { value: searchParams.get(name) ?? undefined, open, close };
}
