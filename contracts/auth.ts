// Sign-up, login and session endpoints (SPEC.md §5 rules, §7 /auth/* and /user/). The body schemas carry
// SPEC.md §5's exact English messages so the SPA's forms and the server validate with the same rules.
import { z } from 'zod';
import { resultOf } from './common';

/** SPEC.md §5 messages, in one place for the forms and their tests. */
export const AuthMessage = {
  INCORRECT_EMAIL: 'Incorrect email',
  FIELD_REQUIRED: 'Field is required',
  PASSWORD_MIN: 'Minimum 6 characters',
  PASSWORD_CHARACTERS:
    'Should contain one uppercase letter, one lowercase letter, one digit, and one special character',
  NICKNAME_MIN: 'Minimum 4 characters',
  NICKNAME_CHARACTERS: 'Must not contain control or invisible formatting characters',
  NICKNAME_VISIBLE: 'Must contain a letter or a digit, and nothing that only looks blank',
  PASSWORDS_MUST_MATCH: 'Passwords must match',
} as const;

/**
 * Characters that count as "special": SPEC.md §5's !@#$%^&* and, since issue 53, every other printable ASCII
 * character that is not a letter, a digit or a space (a trader's `-` or `?` is special too). Every password
 * SPEC.md's set accepts is still accepted.
 */
export const PASSWORD_SPECIAL_CHARACTERS = '!@#$%^&*' + '"\'()+,-./:;<=>?[\\]_`{|}~';
const PASSWORD_PATTERN = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[!-/:-@[-`{-~]).*$/;

/** Upper bounds that keep a single request small; SPEC.md sets only the minimums. */
const EMAIL_MAX_LENGTH = 254;
const PASSWORD_MAX_LENGTH = 128;
const NICKNAME_MAX_LENGTH = 64;

const isEmpty = (input: unknown) => input === undefined || input === null || input === '';

/**
 * Control (Cc), format (Cf: bidirectional overrides and isolates, zero-width space and joiners, the BOM),
 * line and paragraph separators and lone surrogates: a nickname is shown to its trader (sidebar, profile), and
 * these make it read other than it is (a right-to-left override reverses what follows) or hide characters.
 */
const INVISIBLE_OR_CONTROL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

/**
 * Characters that are letters or symbols to Unicode but show as blank (issue 38 item 6): the Hangul fillers,
 * the blank Braille pattern, the combining grapheme joiner, the Mongolian vowel separator and the Khmer
 * inherent vowels. A nickname of them reads as an empty name.
 */
const BLANK_LOOKALIKE = /[\u115F\u1160\u3164\uFFA0\u2800\u180E]|\u034F|\u17B4|\u17B5/u;

/**
 * Characters that draw on the one before them (Grapheme_Extend: combining marks, variation selectors, the
 * halfwidth sound marks U+FF9E–FF9F that Unicode files as letters): none is a character of its own (issue 52).
 */
const EXTENDING = /\p{Grapheme_Extend}/gu;
/** Marks on one character at most: Vietnamese, Hebrew or Devanagari need two or three; zalgo stacks dozens. */
export const NICKNAME_MARKS_IN_A_ROW = 4;
const MARK_TOWER = new RegExp(`\\p{Grapheme_Extend}{${NICKNAME_MARKS_IN_A_ROW + 1},}`, 'u');

/**
 * A nickname someone can read: at least one letter or digit that is not a mark, none of the blank lookalikes,
 * no tower of marks (zalgo), and every word (a run between spaces) holds something visible once its marks and
 * variation selectors are set aside — a word of them alone draws nothing of its own.
 */
export function isVisibleNickname(nickname: string): boolean {
  if (BLANK_LOOKALIKE.test(nickname) || MARK_TOWER.test(nickname)) return false;
  const bare = (text: string) => text.replace(EXTENDING, '');
  if (!/[\p{L}\p{N}]/u.test(bare(nickname))) return false;
  return nickname
    .split(/\s+/u)
    .filter((word) => word !== '')
    .every((word) => /[\p{L}\p{N}\p{P}\p{S}]/u.test(bare(word)));
}

export const userEmail = z
  .email({
    error: (issue) => (isEmpty(issue.input) ? AuthMessage.FIELD_REQUIRED : AuthMessage.INCORRECT_EMAIL),
  })
  .max(EMAIL_MAX_LENGTH);

/** A password by SPEC.md §5: at least 6 characters, one each of upper, lower, digit and a special character. */
export const userPassword = z
  .string({ error: AuthMessage.FIELD_REQUIRED })
  .min(1, AuthMessage.FIELD_REQUIRED)
  .min(6, AuthMessage.PASSWORD_MIN)
  .max(PASSWORD_MAX_LENGTH)
  .regex(PASSWORD_PATTERN, AuthMessage.PASSWORD_CHARACTERS);

export const userNickname = z
  .string({ error: AuthMessage.FIELD_REQUIRED })
  .trim()
  .min(1, AuthMessage.FIELD_REQUIRED)
  .min(4, AuthMessage.NICKNAME_MIN)
  .max(NICKNAME_MAX_LENGTH)
  .refine((nickname) => !INVISIBLE_OR_CONTROL.test(nickname), AuthMessage.NICKNAME_CHARACTERS)
  .refine(isVisibleNickname, AuthMessage.NICKNAME_VISIBLE);

export const loginBody = z
  .object({ user_email: userEmail, user_password: userPassword })
  .meta({ id: 'LoginBody' });
export type LoginBody = z.infer<typeof loginBody>;

export const signupBody = z
  .object({
    user_email: userEmail,
    user_nickname: userNickname,
    user_password: userPassword,
    user_password_repeat: userPassword,
  })
  .refine((body) => body.user_password === body.user_password_repeat, {
    message: AuthMessage.PASSWORDS_MUST_MATCH,
    path: ['user_password_repeat'],
    // Report a mismatch even while another field is still invalid, as a form expects.
    when: (payload) => {
      const value = payload.value as Partial<Record<string, unknown>> | undefined;
      return typeof value?.user_password === 'string' && typeof value.user_password_repeat === 'string';
    },
  })
  .meta({ id: 'SignupBody' });
export type SignupBody = z.infer<typeof signupBody>;

/** The created user as POST /user/ answers it (SPEC.md §7 leaves the answer open). */
export const signupResult = z.object({
  user_uuid: z.uuid(),
  user_email: z.string(),
  user_nickname: z.string(),
});
export const signupAnswer = resultOf(signupResult);

export const TOKEN_TYPE = 'bearer' as const;
/** result.token_type and result.access_token (SPEC.md §7); the SPA stores them as 'type token'. */
export const accessTokenResult = z
  .object({ token_type: z.literal(TOKEN_TYPE), access_token: z.string().min(1) })
  .meta({ id: 'AccessToken' });
export type AccessTokenResult = z.infer<typeof accessTokenResult>;
export const loginAnswer = resultOf(accessTokenResult);
/** GET /auth/refresh/ answers the same shape as login; the SPA reads result.access_token. */
export const refreshAnswer = resultOf(accessTokenResult);

/**
 * The current user (GET /auth/me/). user_trade_token_key is a random 256-bit secret (64 hex characters)
 * that, with the PIN and the platform_uuid, keys the trade token envelope (SPEC.md §3, DESIGN.md "Token vault").
 */
export const currentUser = z
  .object({
    user_uuid: z.uuid(),
    user_email: z.string(),
    user_nickname: z.string(),
    user_trade_token_key: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .meta({ id: 'CurrentUser' });
export type CurrentUser = z.infer<typeof currentUser>;
export const meAnswer = resultOf(currentUser);

/** GET /auth/create_websocket_token/: a single-use token for /api/ws_core/{token}, valid for expires_in s. */
export const websocketTokenResult = z
  .object({ token: z.string().min(1), expires_in: z.number().int().positive() })
  .meta({ id: 'WebsocketToken' });
export type WebsocketTokenResult = z.infer<typeof websocketTokenResult>;
export const websocketTokenAnswer = resultOf(websocketTokenResult);

/** POST /auth/logout/ (not in SPEC.md §7): revokes the refresh token of the cookie. */
export const logoutAnswer = resultOf(z.object({ logged_out: z.literal(true) }));
