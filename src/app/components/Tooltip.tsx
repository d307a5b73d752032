// Validation tooltips (application-spec §5, §9): a field's error messages, joined by newlines,
// in a tooltip at the field, hidden until the field has been blurred or its form marked touched;
// offset 20 px, arrow padding 12 px. Usage, right after the control it speaks of:
//
//   <input aria-invalid={shown} aria-describedby={errorId} … />
//   <FieldTooltip id={errorId} errors={errors.password} show={touched} />
//
// The tooltip is in the page's flow under its control (styles.css, .field-tooltip), not an
// overlay placed by script: an overlay is measured once and stays where it was put while the
// dialog or page scrolls, shakes, or grows a field above it, so it ended up beside another field.
// In the flow it moves with its field whatever moves, is clipped by nothing and covers no other
// field. Because it takes room, a tooltip that would appear while a pointer is pressed (the
// field was blurred by pressing a button below it: Cancel) waits for the release and the click
// it makes: otherwise the button moves from under the pointer and the click misses it.
//
// useTouched() keeps the blurred-or-touched state of a form's fields.
import { useCallback, useState, useSyncExternalStore, type CSSProperties } from 'react';
import { TOOLTIP_ARROW_PADDING_PX, TOOLTIP_OFFSET_PX } from '../developerMode';

const TOOLTIP_SPACING = {
  '--tooltip-offset': `${TOOLTIP_OFFSET_PX}px`,
  '--tooltip-arrow-padding': `${TOOLTIP_ARROW_PADDING_PX}px`,
} as CSSProperties;

/** Whether a mouse button, finger or pen is pressed anywhere on the page; listened to once. */
const press = { down: false, listeners: new Set<() => void>(), listening: false };

function subscribeToPresses(listener: () => void): () => void {
  if (!press.listening) {
    press.listening = true;
    const set = (down: boolean) => {
      press.down = down;
      for (const notify of press.listeners) notify();
    };
    window.addEventListener('pointerdown', () => set(true), true);
    // After the click the release makes, which the browser dispatches in the same task.
    const release = () => setTimeout(() => set(false));
    window.addEventListener('pointerup', release, true);
    window.addEventListener('pointercancel', release, true);
  }
  press.listeners.add(listener);
  return () => press.listeners.delete(listener);
}

export function FieldTooltip({
  id,
  errors,
  show,
}: {
  id?: string;
  errors: readonly string[] | undefined;
  show: boolean;
}) {
  const pressed = useSyncExternalStore(
    subscribeToPresses,
    () => press.down,
    () => false,
  );
  // A tooltip shown stays through a press; a new one waits for the press to end.
  const [wasShown, setWasShown] = useState(false);
  const shown = show && !!errors && errors.length > 0 && (wasShown || !pressed);
  if (shown !== wasShown) setWasShown(shown);
  if (!shown) return null;
  return (
    <div role="tooltip" className="field-tooltip" style={TOOLTIP_SPACING}>
      <svg className="field-tooltip-arrow" width={12} height={6} viewBox="0 0 12 6" aria-hidden="true">
        <path d="M0 6 L6 0 L12 6" />
      </svg>
      <span id={id}>{errors.join('\n')}</span>
    </div>
  );
}

/** Which fields of a form have been blurred, and whether the whole form is marked touched. */
export function useTouched<Field extends string>() {
  const [blurred, setBlurred] = useState<ReadonlySet<Field>>(new Set());
  const [all, setAll] = useState(false);
  const blur = useCallback((field: Field) => {
    setBlurred((set) => (set.has(field) ? set : new Set(set).add(field)));
  }, []);
  const isTouched = useCallback((field: Field) => all || blurred.has(field), [all, blurred]);
  const touchAll = useCallback(() => setAll(true), []);
  return { blur, isTouched, touchAll };
}
