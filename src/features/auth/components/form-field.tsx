import { useId, type InputHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { validationMessageKey } from './form-messages';

interface FormFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error: string | undefined;
}

/** A labelled input with its validation message under it (translated when it is a SPEC.md §5 message). */
export function FormField({ label, error, ...input }: FormFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const errorId = `${id}-error`;
  const key = validationMessageKey(error);
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="input"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...input}
      />
      <div id={errorId} className="field-error" role={error ? 'alert' : undefined}>
        {error ? (key ? t(key) : error) : null}
      </div>
    </div>
  );
}
