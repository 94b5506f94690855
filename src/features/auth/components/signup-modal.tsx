import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { signupBody, type SignupBody } from '../../../../contracts/auth';
import { signupUser } from '../../../stores/auth-store';
import { AuthDialog, useAuthSubmit } from './auth-dialog';
import { FormField } from './form-field';

/** 'Sign Up' dialog (SPEC.md §2, §5). On success the trader is logged in with the same credentials. */
export function SignupModal({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useTranslation();
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
  const { serverError, close, submit } = useAuthSubmit(signupUser, () => reset(), onClose);
  const password = register('user_password');

  return (
    <AuthDialog
      isOpen={isOpen}
      title={t('auth.signup_title')}
      submitLabel={t('auth.signup')}
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
    </AuthDialog>
  );
}
