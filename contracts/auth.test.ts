// The nickname rule of the contracts (contracts/auth.ts), as the server's sign-up and the SPA's form both apply
// it: a nickname must read as a name. Issue 52: one made only of zalgo (combining marks, stacked) and variation
// selectors — also on the halfwidth sound marks, which Unicode files as letters — or drowned in a tower of marks,
// is refused like the other blank lookalikes.
import { describe, expect, it } from 'vitest';
import { AuthMessage, NICKNAME_MARKS_IN_A_ROW, isVisibleNickname, userNickname } from './auth';

const ZALGO = '\u0338\u0321\u031b\u0358';
const refusal = (nickname: string) => userNickname.safeParse(nickname).error?.issues[0]?.message;

describe('nicknames of marks and variation selectors alone are refused (issue 52)', () => {
  it.each([
    ['zalgo marks alone', `${ZALGO}\u0300\u0301`],
    ['variation selectors alone', '\ufe0f\ufe0e\ufe0f\ufe0e'],
    ['supplementary variation selectors alone', '\u{E0100}\u{E0101}\u{E0102}\u{E0103}'],
    ['Mongolian variation selectors alone', '\u180b\u180c\u180d\u180f'],
    ['marks and variation selectors mixed', `\u0301\ufe0f${ZALGO}\ufe0e`],
    ['zalgo on the halfwidth sound marks', `\uff9e${ZALGO}\uff9f${ZALGO}`],
    ['halfwidth sound marks and variation selectors', '\uff9e\ufe0f\uff9f\ufe0f'],
    ['a name with a word of variation selectors', 'ada \ufe0f\ufe0f\ufe0f'],
    ['a name with a word of zalgo on a sound mark', `ada \uff9e${ZALGO}`],
    ['a name drowned in a tower of marks', `ad${ZALGO}${ZALGO}a`],
  ])('refuses %s', (_what, nickname) => {
    expect(isVisibleNickname(nickname)).toBe(false);
    expect(refusal(nickname)).toBe(AuthMessage.NICKNAME_VISIBLE);
  });

  it.each([
    ['Vietnamese with two marks on a letter', 'Nguye\u0302\u0303n'],
    ['Hindi with its vowel signs', 'राहुल'],
    ['Hebrew with points', 'שָׁלוֹם'],
    ['an emoji with its presentation selector', 'ada ❤\ufe0f'],
    ['a keycap', 'ada 1\ufe0f\u20e3'],
    ['Ukrainian and accents', 'Тарас Ñoño'],
    [`${NICKNAME_MARKS_IN_A_ROW} marks on one letter`, `ada${ZALGO}`],
  ])('accepts %s', (_what, nickname) => {
    expect(userNickname.safeParse(nickname).success, nickname).toBe(true);
  });
});
