import { Button, FormIcon, cx } from '../../../components/ui';
import '../../../styles/onboarding.css';
import { AESTHETICS } from '../data/aesthetics';

/** Props of AestheticGrid. */
export interface AestheticGridProps {
  selected: readonly string[];
  onToggle: (title: string) => void;
  /** Cards toggle only while editing. */
  editing: boolean;
  /** When given, an Edit / Done button switches edit mode. */
  onEditingChange?: (editing: boolean) => void;
  disabled?: boolean;
  error?: string;
}

/**
 * AestheticGrid shows the eight clothing aesthetic cards (illustration and
 * title; on small screens also the example styles). A card toggles only in
 * edit mode; a selected card is highlighted and carries a check mark.
 */
export function AestheticGrid({ selected, onToggle, editing, onEditingChange, disabled, error }: AestheticGridProps) {
  return (
    <div>
      {onEditingChange && (
        <Button variant={editing ? 'solid' : 'outline'} size="small" disabled={disabled} onClick={() => onEditingChange(!editing)} className="ob-edit-btn">
          {editing ? 'Done choosing aesthetics' : 'Edit aesthetics'}
        </Button>
      )}
      <div role="group" aria-label="Clothing aesthetics" className="ob-cards">
        {AESTHETICS.map((a) => {
          const on = selected.includes(a.title);
          const locked = disabled || !editing;
          return (
            <button
              type="button"
              key={a.title}
              role="checkbox"
              aria-checked={on}
              aria-disabled={locked || undefined}
              aria-label={a.title}
              onClick={() => {
                if (!locked) onToggle(a.title);
              }}
              className={cx('ob-card', locked && !on && 'ob-card-dim')}
            >
              <img src={a.image} alt={a.alt} loading="lazy" width={120} height={160} />
              {on && (
                <span className="ob-card-check" data-testid="aesthetic-check" aria-hidden>
                  <FormIcon name="checkCircle" />
                </span>
              )}
              <span className="ob-card-text">
                <span className="ob-card-title">{a.title}</span>
                <ul>
                  {a.description.map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              </span>
            </button>
          );
        })}
      </div>
      {error && (
        <p role="alert" className="ob-error-line">
          {error}
        </p>
      )}
    </div>
  );
}
