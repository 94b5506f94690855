import { useEffect, useRef, useState } from 'react';
import { PREFERENCE_SAVE_DEBOUNCE_MS } from '../../../config/constants';

type Values = Readonly<Record<string, number>>;

function sameValues(a: Values, b: Values): boolean {
  return Object.keys(a).every((key) => a[key] === b[key]);
}

/**
 * Preference editing of SPEC.md §4: an edit marks the form as changing; PREFERENCE_SAVE_DEBOUNCE_MS after the
 * last edit the values are saved, only if they differ from the loaded ones. Success clears the flag and says
 * "saved" (the store then holds the saved values); a failure goes back to the loaded values.
 *
 * One timer per edit (issue 53): the timer is keyed on the draft alone and reads `loaded` and `save` when it
 * fires, so a card re-rendered by live prices, balances or a trade (a `save` made anew on every render) no longer
 * restarts it. An edit still pending is saved at once when the page is hidden or closed (`pagehide`,
 * `visibilitychange`), and when the form unmounts; each draft is sent once.
 */
export function useDebouncedSave<T extends Values>(
  loaded: T | undefined,
  save: (values: T) => Promise<boolean>,
) {
  const [draft, setDraft] = useState<T>();
  const [saved, setSaved] = useState(false);
  const latest = useRef<{ draft: T | undefined; loaded: T | undefined; save: typeof save }>({
    draft: undefined,
    loaded,
    save,
  });
  // The draft already sent (by the timer, a page hide or the unmount): never sent twice.
  const sent = useRef<T | undefined>(undefined);
  const flushRef = useRef<() => void>(() => undefined);

  useEffect(() => {
    latest.current = { draft, loaded, save };
  });

  useEffect(() => {
    // Sends the pending draft now, if it changes anything; its outcome ends the "changing" state.
    const flush = (): void => {
      const { draft: pending, loaded: base, save: send } = latest.current;
      if (!pending || sent.current === pending) return;
      sent.current = pending;
      if (base && sameValues(pending, base)) {
        setDraft((current) => (current === pending ? undefined : current));
        return;
      }
      void send(pending).then((ok) => {
        // Success: the store holds these values now. Failure: show the loaded values again.
        setDraft((current) => (current === pending ? undefined : current));
        if (ok && latest.current.draft === pending) setSaved(true);
      });
    };
    flushRef.current = flush;
    const onHidden = () => {
      if (document.visibilityState === 'hidden') flush();
    };
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', onHidden);
    return () => {
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', onHidden);
      flush();
    };
  }, []);

  useEffect(() => {
    if (!draft) return;
    const timer = setTimeout(() => flushRef.current(), PREFERENCE_SAVE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft]);

  const values = draft ?? loaded;
  const edit = <K extends keyof T>(key: K, value: T[K]) => {
    if (!values) return;
    setSaved(false);
    setDraft({ ...values, [key]: value });
  };
  return { values, edit, isChanging: draft !== undefined, isSaved: saved && draft === undefined };
}
