import { CONTACT_SUBJECTS } from '../config/constants';

/** count writes n with the noun in the right number: "1 visitor", "4 visitors". */
export function count(n: number, one: string, many = `${one}s`, show: (n: number) => string = String): string {
  return `${show(n)} ${n === 1 ? one : many}`;
}

/** subjectLabel is the label a contact subject shows with ("careers" is "Careers"). */
export function subjectLabel(value: string): string {
  return CONTACT_SUBJECTS.find((s) => s.value === value)?.label ?? value;
}

/**
 * localPhone writes a +260 number the way Zambians write it: 097 123 4567
 * for a mobile, 0211 123 456 for a landline (as the server's
 * settings.LocalFormat); anything else is left as it is.
 */
export function localPhone(e164: string): string {
  const m = /^\+260(\d{9})$/.exec(e164.replace(/\s+/g, ''));
  if (!m) return e164;
  const d = m[1];
  return d.startsWith('2') ? `0${d.slice(0, 3)} ${d.slice(3, 6)} ${d.slice(6)}` : `0${d.slice(0, 2)} ${d.slice(2, 5)} ${d.slice(5)}`;
}
