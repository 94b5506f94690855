// The frame both auth dialogs share (SPEC.md §2, §5): a small modal with one form, submit disabled while the
// form is invalid or sending, and the translated server error in red in the footer.
import { useState, type FormEventHandler, type ReactNode } from 'react';
import { Modal, ModalSize } from '../../../components/ui';
import { translateError } from '../../../lib/i18n';
import './auth.css';

interface AuthDialogProps {
  isOpen: boolean;
  title: string;
  submitLabel: string;
  serverError: string | undefined;
  canSubmit: boolean;
  onSubmit: FormEventHandler<HTMLFormElement>;
  onClose: () => void;
  children: ReactNode;
}

export function AuthDialog(props: AuthDialogProps) {
  const { isOpen, title, submitLabel, serverError, canSubmit, onSubmit, onClose, children } = props;
  return (
    <Modal
      isOpen={isOpen}
      onClose={onClose}
      title={title}
      size={ModalSize.S}
      footer={
        serverError ? (
          <p className="form-error" role="alert" data-testid="auth-server-error">
            {serverError}
          </p>
        ) : undefined
      }
    >
      <form className="auth-form" onSubmit={onSubmit} noValidate>
        {children}
        <div className="form-actions">
          <button type="submit" className="button is-primary auth-submit" disabled={!canSubmit}>
            {submitLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/**
 * Runs `action` on submit: on success the dialog closes (form reset), on failure the server error is shown.
 * Returns the error to show and the close handler that also clears it.
 */
export function useAuthSubmit<T>(
  action: (values: T) => Promise<void>,
  reset: () => void,
  onClose: () => void,
) {
  const [serverError, setServerError] = useState<string>();
  const close = () => {
    setServerError(undefined);
    reset();
    onClose();
  };
  const submit = async (values: T) => {
    setServerError(undefined);
    try {
      await action(values);
      close();
    } catch (error) {
      setServerError(translateError(error));
    }
  };
  return { serverError, close, submit };
}
