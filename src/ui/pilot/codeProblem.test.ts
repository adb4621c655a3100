import { describe, expect, it } from 'vitest';
import { i18n } from '../../i18n';
import { pairingCodeProblemText } from './codeProblem';

const t = i18n.getFixedT('en');
const ru = i18n.getFixedT('ru');

describe('pairingCodeProblemText', () => {
  it('a code says nothing, however it is typed', () => {
    expect(pairingCodeProblemText(t, 'abcde-fghjk')).toBeNull();
    expect(pairingCodeProblemText(t, ' ABCDE FGHJK ')).toBeNull();
  });

  it('names every character codes never contain, once each, in the page\'s language', () => {
    expect(pairingCodeProblemText(t, 'hello-world')).toBe('The code has “L” and “O”, which codes never contain (no 0, O, 1, I or L). Check it.');
    expect(pairingCodeProblemText(ru, 'hello-world')).toBe('В коде есть «L» и «O», а в кодах такого не бывает (нет 0, O, 1, I и L). Проверьте его.');
    expect(pairingCodeProblemText(t, 'ABCDE-FGHJ1')).toBe('The code has “1”, which codes never contain (no 0, O, 1, I or L). Check it.');
  });

  it('says a wrong length too, not only the first problem', () => {
    expect(pairingCodeProblemText(t, 'hello0')).toBe(
      'The code has “L”, “O”, and “0”, which codes never contain (no 0, O, 1, I or L). Check it. A code has 10 characters; this one has 6.',
    );
    expect(pairingCodeProblemText(ru, 'hello0')).toBe(
      'В коде есть «L», «O» и «0», а в кодах такого не бывает (нет 0, O, 1, I и L). Проверьте его. В коде 10 символов, а здесь 6.',
    );
    expect(pairingCodeProblemText(t, 'ABCDE')).toBe('A code has 10 characters; this one has 5.');
    expect(pairingCodeProblemText(t, '  ')).toBe('Type the code first: ten letters and digits, like ABCDE-FGHJK.');
  });
});
