import { BOT_TRAP_FIELD } from '../config/constants';

/**
 * BotTrap is a form field people never see: it is off screen, hidden from
 * screen readers and out of the tab order. Bots that fill every field fill it
 * too, and the server then stores nothing. Read it with botTrapValue(form).
 */
export function BotTrap() {
  return (
    <div
      aria-hidden="true"
      style={{ position: 'absolute', left: '-10000px', top: 'auto', width: 1, height: 1, overflow: 'hidden' }}
    >
      <label>
        Website
        <input type="text" name={BOT_TRAP_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}

/** botTrapValue reads the hidden field of form ('' when people submit). */
export function botTrapValue(form: HTMLFormElement): string {
  const v = new FormData(form).get(BOT_TRAP_FIELD);
  return typeof v === 'string' ? v : '';
}
