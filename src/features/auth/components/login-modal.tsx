import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { loginBody, type LoginBody } from '../../../../contracts/auth';
import { Modal, ModalSize } from '../../../components/ui';
import { translateError } from '../../../lib/i18n';
import { loginUser } from '../auth-store';
import { FormField } from './form-field';
import './auth.css';

/** 'Log In' dialog (SPEC.md §2, §5): submit disabled while invalid, server error in red in the footer. */
export function LoginModal({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [serverError, setServerError] = useState<string>();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isValid, isSubmitting },
  } = useForm<LoginBody>({
    resolver: zodResolver(loginBody),
    mode: 'onChange',
    defaultValues: { user_email: '', user_password: '' },
  });

  const close = () => {
    setServerError(undefined);
    reset();
    onClose();
  };

  const onSubmit = handleSubmit(async (values) => {
    setServerError(undefined);
    try {
      await loginUser(values);
      close();
    } catch (error) {
      setServerError(translateError(error));
    }
  });

  return (
    <Modal
      isOpen={isOpen}
      onClose={close}
      title={t('auth.login_title')}
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
        <FormField
          label={t('auth.email')}
          type="email"
          autoComplete="email"
          error={errors.user_email?.message}
          {...register('user_email')}
        />
        <FormField
          label={t('auth.password')}
          type="password"
          autoComplete="current-password"
          error={errors.user_password?.message}
          {...register('user_password')}
        />
        <div className="form-actions">
          <button type="submit" className="button is-primary auth-submit" disabled={!isValid || isSubmitting}>
            {t('auth.login')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
