// The what-if replay of the settings shown (issue 42): GET /trade_preferences/get_what_if/ with the platform's
// and the global preferences as they are saved, asked again WHAT_IF_DEBOUNCE_MS after they last changed. While a
// replay of this trader still runs the server answers 429: the newer question waits a moment and asks again. A
// question waits up to WHAT_IF_TIMEOUT_MS (a cold replay on a busy server is slow); one that outlives even that
// is asked again: the server keeps replaying it, and the same question asked again waits for that replay (or
// finds its answer kept).
import { useEffect, useState } from 'react';
import { whatIfAnswer, type WhatIfResult } from '../../../contracts/what-if';
import { WHAT_IF_TIMEOUT_MS } from '../../config/constants';
import { ApiError, ApiErrorKind, apiGet } from '../../lib/api-client';
import { translateError } from '../../lib/i18n';
import { keepWhatIf, oneAtATime } from '../../stores/what-if-store';

export const WHAT_IF_DEBOUNCE_MS = 400;
const BUSY_RETRY_MS = 1000;
const BUSY_ATTEMPTS = 10;

export type WhatIfSettings = Readonly<Record<string, number>>;

export interface WhatIfState {
  result?: WhatIfResult;
  /** The settings the shown result answers (it stays shown while a newer question runs). */
  answered?: string;
  loading: boolean;
  error?: string;
}

export function useWhatIf(platformUuid: string, settings: WhatIfSettings | undefined): WhatIfState {
  const [state, setState] = useState<WhatIfState>({ loading: false });
  const key = settings ? JSON.stringify(settings) : undefined;

  useEffect(() => {
    if (!key) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      setState((current) => ({ ...current, loading: true, error: undefined }));
      void (async () => {
        for (let attempt = 1; !cancelled; attempt++) {
          try {
            const { result } = await oneAtATime(() =>
              apiGet(
                'trade_preferences/get_what_if/',
                whatIfAnswer,
                { platform_uuid: platformUuid, ...(JSON.parse(key) as WhatIfSettings) },
                { timeoutMs: WHAT_IF_TIMEOUT_MS },
              ),
            );
            keepWhatIf(platformUuid, result);
            if (!cancelled) setState({ result, answered: key, loading: false });
            return;
          } catch (error) {
            const again =
              error instanceof ApiError &&
              (error.status === 429 || error.kind === ApiErrorKind.TIMEOUT_ERROR);
            if (again && attempt < BUSY_ATTEMPTS) {
              await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
              continue;
            }
            if (!cancelled) {
              setState((current) => ({ ...current, loading: false, error: translateError(error) }));
            }
            return;
          }
        }
      })();
    }, WHAT_IF_DEBOUNCE_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [platformUuid, key]);

  return state;
}
