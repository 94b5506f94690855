// POST /api/user/ (sign-up): SPEC.md §5 rules on the server, duplicate e-mail answered 409.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthMessage } from '../../../../contracts';
import { TEST_PASSWORD, createTestApp, type TestApp } from '../../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const valid = {
  user_email: 'Ada.Lovelace@Example.com',
  user_nickname: 'ada_l',
  user_password: TEST_PASSWORD,
  user_password_repeat: TEST_PASSWORD,
};

function signup(payload: object) {
  return t.app.inject({ method: 'POST', url: '/api/user/', payload });
}

describe('POST /api/user/', () => {
  it('creates a user and answers its public fields (the e-mail lower-cased)', async () => {
    const response = await signup(valid);
    expect(response.statusCode).toBe(201);
    const { result } = response.json();
    expect(result).toEqual({
      user_uuid: expect.any(String),
      user_email: 'ada.lovelace@example.com',
      user_nickname: 'ada_l',
    });
    expect(response.body).not.toContain(TEST_PASSWORD);
  });

  it('refuses a second account for the same e-mail in any letter case with 409', async () => {
    const response = await signup({ ...valid, user_email: 'ADA.LOVELACE@example.COM' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ detail: 'A user with this email already exists' });
  });

  it.each([
    [{ user_email: 'not-an-email' }, `user_email: ${AuthMessage.INCORRECT_EMAIL}`],
    [{ user_email: '' }, `user_email: ${AuthMessage.FIELD_REQUIRED}`],
    [{ user_nickname: 'abc' }, `user_nickname: ${AuthMessage.NICKNAME_MIN}`],
    [{ user_password: 'Ab1!', user_password_repeat: 'Ab1!' }, `user_password: ${AuthMessage.PASSWORD_MIN}`],
    [
      { user_password: 'abcdef1!', user_password_repeat: 'abcdef1!' },
      `user_password: ${AuthMessage.PASSWORD_CHARACTERS}`,
    ],
    [
      { user_password: 'Abcdefg!', user_password_repeat: 'Abcdefg!' },
      `user_password: ${AuthMessage.PASSWORD_CHARACTERS}`,
    ],
    [
      { user_password: 'Abcdef12', user_password_repeat: 'Abcdef12' },
      `user_password: ${AuthMessage.PASSWORD_CHARACTERS}`,
    ],
    [{ user_password_repeat: 'Other#12' }, `user_password_repeat: ${AuthMessage.PASSWORDS_MUST_MATCH}`],
  ])('answers 400 naming the field for %o', async (change, detail) => {
    const response = await signup({ ...valid, user_email: 'someone.else@example.com', ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail });
  });

  it.each([
    ['a right-to-left override', 'ada\u202Egnp.exe'],
    ['a left-to-right isolate', 'ada\u2066_lovelace'],
    ['a zero-width space', 'ada\u200B_lovelace'],
    ['a zero-width joiner', 'ada\u200D_l'],
    ['a byte-order mark inside', 'ada\uFEFF_l'],
    ['a control character', 'ada\u0007_l'],
    ['a line break', 'ada\n_l'],
    ['a line separator', 'ada\u2028_l'],
  ])('refuses a nickname with %s', async (_what, user_nickname) => {
    const response = await signup({ ...valid, user_email: 'fourth@example.com', user_nickname });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: `user_nickname: ${AuthMessage.NICKNAME_CHARACTERS}` });
  });

  it.each([
    ['Hangul fillers only', '\u3164\u3164\u3164\u3164'],
    ['blank Braille patterns only', '\u2800\u2800\u2800\u2800'],
    ['combining grapheme joiners only', '\u034F\u034F\u034F\u034F'],
    ['combining marks only', '\u0301\u0302\u0303\u0304'],
    ['a name padded with a Hangul filler', 'ada\u3164\u3164'],
    ['symbols and no letter or digit', '★★★★'],
    ['a word of combining marks alone', 'ada \u0301\u0301\u0301'],
  ])('refuses a nickname of %s (issue 38 item 6)', async (_what, user_nickname) => {
    const response = await signup({ ...valid, user_email: 'sixth@example.com', user_nickname });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: `user_nickname: ${AuthMessage.NICKNAME_VISIBLE}` });
  });

  it('accepts letters of any script, marks, emoji and inner spaces', async () => {
    const response = await signup({
      ...valid,
      user_email: 'fifth@example.com',
      user_nickname: 'Тарас 🚀 Ñoño',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().result.user_nickname).toBe('Тарас 🚀 Ñoño');
  });

  it('answers 400 "Field is required" for a missing field', async () => {
    const { user_nickname: _omitted, ...rest } = valid;
    const response = await signup({ ...rest, user_email: 'third@example.com' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: `user_nickname: ${AuthMessage.FIELD_REQUIRED}` });
  });
});
