import { AuthMessage } from '../../../../contracts/auth';

/** SPEC.md §5 messages (English, from contracts) → translation keys, so ua shows Ukrainian text. */
const AUTH_MESSAGE_KEY: Readonly<Record<string, string>> = {
  [AuthMessage.INCORRECT_EMAIL]: 'validation.incorrect_email',
  [AuthMessage.FIELD_REQUIRED]: 'validation.field_required',
  [AuthMessage.PASSWORD_MIN]: 'validation.password_min',
  [AuthMessage.PASSWORD_CHARACTERS]: 'validation.password_characters',
  [AuthMessage.NICKNAME_MIN]: 'validation.nickname_min',
  [AuthMessage.NICKNAME_CHARACTERS]: 'validation.nickname_characters',
  [AuthMessage.NICKNAME_VISIBLE]: 'validation.nickname_visible',
  [AuthMessage.PASSWORDS_MUST_MATCH]: 'validation.passwords_must_match',
};

/** The translation key of a validation message, or undefined for a message without one. */
export function validationMessageKey(message: string | undefined): string | undefined {
  return message === undefined ? undefined : AUTH_MESSAGE_KEY[message];
}
