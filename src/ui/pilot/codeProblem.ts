import type { TFunction } from 'i18next';
import { PAIRING_ALPHABET, PAIRING_CODE_LENGTH, pairingCodeProblem } from '../../domain/pilot';

/** Why a typed or linked text is not a pairing code, in the page's language (pairingCodeProblem decides); null when it is one. */
export function pairingCodeProblemText(t: TFunction, input: string): string | null {
  if (pairingCodeProblem(input) === null) return null;
  const code = input.replace(/[\s-]+/g, '').toUpperCase();
  if (code.length === 0) return t('pilot.follow.empty');
  const bad = [...code].find((ch) => !PAIRING_ALPHABET.includes(ch));
  if (bad !== undefined) return t('pilot.follow.badChar', { char: bad });
  return t('pilot.follow.length', { expected: PAIRING_CODE_LENGTH, got: code.length });
}
