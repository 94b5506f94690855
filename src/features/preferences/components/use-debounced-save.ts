import { useEffect, useRef, useState } from 'react';
import { PREFERENCE_SAVE_DEBOUNCE_MS } from '../../../config/constants';

type Values = Readonly<Record<string, number>>;

function sameValues(a: Values, b: Values): boolean {
  return Object.keys(a).every((key) => a[key] === b[key]);
}

/**
 * Preference editing of SPEC.md §4: an edit marks the form as changing; PREFERENCE_SAVE_DEBOUNCE_MS after the
 * last edit the values are saved, only if they differ from the loaded ones. Success clears the flag (the
 * store then holds the saved values); a failure goes back to the loaded values. Edits still pending when
 * the form unmounts are saved then.
 */
export function useDebouncedSave<T extends Values>(
  loaded: T | undefined,
  save: (values: T) => Promise<boolean>,
) {
  const [draft, setDraft] = useState<T>();
  const latest = useRef<{ draft: T | undefined; loaded: T | undefined; save: typeof save }>({
    draft: undefined,
    loaded,
    save,
  });

  useEffect(() => {
    latest.current = { draft, loaded, save };
  });

  useEffect(() => {
    if (!draft) return;
    const timer = setTimeout(() => {
      if (loaded && sameValues(draft, loaded)) {
        setDraft((current) => (current === draft ? undefined : current));
        return;
      }
      void save(draft).then(() => {
        // Success: the store holds these values now. Failure: show the loaded values again.
        setDraft((current) => (current === draft ? undefined : current));
      });
    }, PREFERENCE_SAVE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, loaded, save]);

  useEffect(() => {
    const state = latest;
    return () => {
      const { draft: pending, loaded: base, save: flush } = state.current;
      if (pending && !(base && sameValues(pending, base))) void flush(pending);
    };
  }, []);

  const values = draft ?? loaded;
  const edit = <K extends keyof T>(key: K, value: T[K]) => {
    if (!values) return;
    setDraft({ ...values, [key]: value });
  };
  return { values, edit, isChanging: draft !== undefined };
}
