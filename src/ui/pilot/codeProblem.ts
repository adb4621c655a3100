import type { TFunction } from 'i18next';
import { PAIRING_ALPHABET, PAIRING_CODE_LENGTH, pairingCodeProblem } from '../../domain/pilot';

/** Why a typed or linked text is not a pairing code, in the page's language (pairingCodeProblem decides); null when it is one. */
export function pairingCodeProblemText(t: TFunction, input: string): string | null {
  if (pairingCodeProblem(input) === null) return null;
  const code = input.replace(/[\s-]+/g, '').toUpperCase();
  if (code.length === 0) return t('pilot.follow.empty');
  // Every problem at once: a mistyped code usually has both (hello0: "L", "O" and "0", and 6 of 10).
  const bad = [...new Set([...code].filter((ch) => !PAIRING_ALPHABET.includes(ch)))];
  const length = code.length === PAIRING_CODE_LENGTH ? null : t('pilot.follow.length', { expected: PAIRING_CODE_LENGTH, got: code.length });
  if (bad.length === 0) return length;
  const chars = t('pilot.follow.badChar', { chars: bad.map((ch) => t('pilot.follow.quoted', { char: ch })) });
  return length ? `${chars} ${length}` : chars;
}
