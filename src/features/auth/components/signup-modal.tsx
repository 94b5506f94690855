import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { signupBody, type SignupBody } from '../../../../contracts/auth';
import { Modal, ModalSize } from '../../../components/ui';
import { translateError } from '../../../lib/i18n';
import { signupUser } from '../auth-store';
import { FormField } from './form-field';
import './auth.css';

/** 'Sign Up' dialog (SPEC.md §2, §5). On success the trader is logged in with the same credentials. */
export function SignupModal({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [serverError, setServerError] = useState<string>();
  const {
    register,
    handleSubmit,
    reset,
    trigger,
    formState: { errors, isValid, isSubmitting, touchedFields },
  } = useForm<SignupBody>({
    resolver: zodResolver(signupBody),
    mode: 'onChange',
    defaultValues: { user_email: '', user_nickname: '', user_password: '', user_password_repeat: '' },
  });

  const close = () => {
    setServerError(undefined);
    reset();
    onClose();
  };

  const onSubmit = handleSubmit(async (values) => {
    setServerError(undefined);
    try {
      await signupUser(values);
      close();
    } catch (error) {
      setServerError(translateError(error));
    }
  });

  const password = register('user_password');
  return (
    <Modal
      isOpen={isOpen}
      onClose={close}
      title={t('auth.signup_title')}
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
          label={t('auth.nickname')}
          type="text"
          autoComplete="username"
          error={errors.user_nickname?.message}
          {...register('user_nickname')}
        />
        <FormField
          label={t('auth.password')}
          type="password"
          autoComplete="new-password"
          error={errors.user_password?.message}
          {...password}
          onChange={async (event) => {
            await password.onChange(event);
            // Re-check the repeat field so 'Passwords must match' follows the first password.
            if (touchedFields.user_password_repeat) void trigger('user_password_repeat');
          }}
        />
        <FormField
          label={t('auth.password_repeat')}
          type="password"
          autoComplete="new-password"
          error={errors.user_password_repeat?.message}
          {...register('user_password_repeat')}
        />
        <div className="form-actions">
          <button type="submit" className="button is-primary auth-submit" disabled={!isValid || isSubmitting}>
            {t('auth.signup')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
