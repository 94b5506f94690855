import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { loginBody, type LoginBody } from '../../../../contracts/auth';
import { loginUser } from '../../../stores/auth-store';
import { AuthDialog, useAuthSubmit } from './auth-dialog';
import { FormField } from './form-field';

/** 'Log In' dialog (SPEC.md §2, §5): submit disabled while invalid, server error in red in the footer. */
export function LoginModal({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useTranslation();
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
  const { serverError, close, submit } = useAuthSubmit(loginUser, () => reset(), onClose);

  return (
    <AuthDialog
      isOpen={isOpen}
      title={t('auth.login_title')}
      submitLabel={t('auth.login')}
      serverError={serverError}
      canSubmit={isValid && !isSubmitting}
      onSubmit={handleSubmit(submit)}
      onClose={close}
    >
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
    </AuthDialog>
  );
}
