// The password rule the sign-up form and the server share (contracts/auth.ts, SPEC.md §5): a special character
// is any printable ASCII character that is not a letter, a digit or a space (issue 53: `-` and `?` count).
import { expect, test } from 'vitest';
import { AuthMessage, PASSWORD_SPECIAL_CHARACTERS, userPassword } from '../../contracts';

const problems = (password: string) =>
  userPassword.safeParse(password).error?.issues.map((issue) => issue.message) ?? [];

test('every special character counts, SPEC.md’s !@#$%^&* and the rest of ASCII punctuation', () => {
  for (const special of PASSWORD_SPECIAL_CHARACTERS)
    expect(problems(`Secret1${special}`), special).toEqual([]);
  expect(problems('Secret-1a')).toEqual([]);
  expect(problems('Secret?1a')).toEqual([]);
});

test('letters, digits and spaces alone are not special', () => {
  for (const password of ['Secret1a', 'Secret 1a', 'Secretй1a']) {
    expect(problems(password), password).toEqual([AuthMessage.PASSWORD_CHARACTERS]);
  }
});
