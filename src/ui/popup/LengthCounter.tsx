/**
 * A quiet count under a long text field of the edit form ("3650 / 4000"), shown once the text is
 * near its bound, so the admin sees the bound before Save refuses it; over the bound it is the
 * error colour. The fields take no maxLength: it would cut a paste short without a word. The
 * field names it in aria-describedby (heard as "3650 of 4000 characters" on focus); it is no live
 * region, which would speak every keystroke.
 */
import { useTranslation } from 'react-i18next';

/** The share of the bound from which the count shows. */
export const COUNTER_FROM = 0.9;

/** Whether a text of `length` is near enough its bound `limit` for the count to show. */
export function counterShown(length: number, limit: number): boolean {
  return length >= limit * COUNTER_FROM;
}

export function LengthCounter({ id, length, limit }: { id: string; length: number; limit: number }) {
  const { t } = useTranslation();
  if (!counterShown(length, limit)) return null;
  const over = length > limit;
  return (
    <p id={id} className={`marker-edit__counter${over ? ' marker-edit__counter--over' : ''}`}>
      <span aria-hidden="true">
        {length} / {limit}
      </span>
      <span className="visually-hidden">{t('markerEdit.counter', { length, count: limit })}</span>
    </p>
  );
}
