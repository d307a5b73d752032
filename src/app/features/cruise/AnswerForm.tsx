// The answer form (application-spec §2, §4): step 1 galaxy type, step 2 interaction, step 3
// features when interacting, else the answer goes straight after step 2. Numbered step buttons go
// back to earlier steps only. Keyboard-first (UI.md): 1 / 2 / 3 (4) choose on each step, Enter
// submits step 3, Backspace goes back one step; the keys are printed on the buttons. The parent
// mounts a fresh form per target (its key), so the step starts at 1 with the saved answer.
//
// Every key counted as pressed: the form takes keys exactly while it looks ready, its buttons
// enabled. It is not ready while the camera is still on its way to the galaxy (the volunteer has
// not seen it yet), while a dialog is open over it (one closing is done with) and while its answer
// is being submitted; then its buttons are disabled and its hint says why. Its key listener is
// added once, in a layout effect (before the form is first painted, whichever update mounted it),
// and reads the form's state from a ref that each key updates at once: a second key that comes
// before React has rendered the first one's step acts on that step, never on the one before.
import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Answer } from '../../../../shared/api';
import type { GalaxyType, Interaction } from '../../../../shared/enums';
import { useDialogOpen } from '../../components/dialogs';
import { isShortcut } from '../../components/shortcuts';
import {
  afterGalaxyType,
  afterInteraction,
  canGoBackTo,
  EMPTY_DRAFT,
  FEATURES,
  toAnswer,
  type Draft,
  type Feature,
  type Next,
  type Step,
} from './answerSteps';

/** The order of the choices on the buttons (UI.md sketch: 1 Spiral, 2 Elliptical, 3 Not sure). */
const TYPE_ORDER: readonly GalaxyType[] = ['spiral', 'elliptical', 'not_sure'];
const INTERACTION_ORDER: readonly Interaction[] = ['yes', 'no', 'not_sure'];
const STEPS: readonly Step[] = [1, 2, 3];

interface FormState {
  step: Step;
  draft: Draft;
  /** The answer is on its way (a captain's note, the store): no key or click until it settles. */
  submitting: boolean;
}

export function AnswerForm({
  objectId,
  saved,
  pending,
  sailing,
  onSubmit,
}: {
  objectId: number;
  /** The saved answer of this target (reloaded, §4), or null when it has none. */
  saved: Draft | null;
  /** Whether this target's answer is waiting to be sent. */
  pending: boolean;
  /** Whether the camera is still on its way to this target. */
  sailing: boolean;
  /** Resolves false when the submission was cancelled (captain note: retry). */
  onSubmit: (answer: Answer) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const dialogOpen = useDialogOpen();
  const [form, setForm] = useState<FormState>(() => ({ step: 1, draft: saved ?? EMPTY_DRAFT, submitting: false }));
  // The state as the last key or click left it, ahead of React's render of it.
  const latest = useRef(form);
  const change = (update: (old: FormState) => FormState) => {
    latest.current = update(latest.current);
    setForm(latest.current);
  };
  const ready = !sailing && !dialogOpen && !form.submitting;
  // What is painted: the listener takes keys only while the form shows ready.
  const shown = useRef({ ready, onSubmit });
  useLayoutEffect(() => {
    shown.current = { ready, onSubmit };
  });

  const submit = async () => {
    if (latest.current.submitting) return;
    const { draft } = latest.current;
    change((old) => ({ ...old, submitting: true }));
    let cancelled = false;
    try {
      cancelled = !(await shown.current.onSubmit(toAnswer(objectId, draft)));
    } finally {
      // Cancelled (a captain's note: retry): from step 1 again. Failed: the same step, to retry.
      change((old) => ({ ...old, submitting: false, step: cancelled ? 1 : old.step }));
    }
  };

  const follow = (next: Next) => {
    if ('submit' in next) void submit();
    else change((old) => ({ ...old, step: next.step }));
  };
  const chooseType = (galaxyType: GalaxyType) => {
    change((old) => ({ ...old, draft: { ...old.draft, galaxy_type: galaxyType } }));
    follow(afterGalaxyType(galaxyType));
  };
  const chooseInteraction = (interaction: Interaction) => {
    change((old) => ({ ...old, draft: { ...old.draft, interaction } }));
    follow(afterInteraction(interaction));
  };
  const toggle = (feature: Feature) =>
    change((old) => ({ ...old, draft: { ...old.draft, [feature]: !old.draft[feature] } }));
  const goTo = (step: Step) => change((old) => ({ ...old, step }));

  // Added before the first paint and kept: every action above reads the state from `latest`.
  const actions = useRef({ chooseType, chooseInteraction, toggle, goTo, submit });
  useLayoutEffect(() => {
    const listener = (event: KeyboardEvent) => {
      if (!isShortcut(event) || !shown.current.ready || latest.current.submitting) return;
      const { step } = latest.current;
      const act = actions.current;
      const digit = Number(event.key) - 1;
      let handled = true;
      if (event.key === 'Backspace' && step > 1) act.goTo((step - 1) as Step);
      else if (step === 1 && TYPE_ORDER[digit]) act.chooseType(TYPE_ORDER[digit]);
      else if (step === 2 && INTERACTION_ORDER[digit]) act.chooseInteraction(INTERACTION_ORDER[digit]);
      else if (step === 3 && FEATURES[digit]) act.toggle(FEATURES[digit]);
      // Enter on a focused control (a button, a link, a menu's summary) is that control's own.
      else if (
        step === 3 &&
        event.key === 'Enter' &&
        !(event.target as HTMLElement | null)?.closest('button, a, summary')
      )
        void act.submit();
      else handled = false;
      if (handled) event.preventDefault();
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  const { step, draft } = form;
  const hint = sailing
    ? t('cruise.sailing')
    : form.submitting
      ? t('cruise.submitting')
      : step > 1
        ? t('cruise.backKey')
        : t('cruise.form');
  return (
    <section
      className="answer-form panel"
      aria-labelledby="answer-step-question"
      aria-busy={!ready || undefined}
      data-testid="answer-form"
      data-step={step}
      data-object-id={objectId}
      data-ready={ready || undefined}
    >
      <div className="answer-form-top">
        <nav className="answer-steps" aria-label={t('cruise.stepNav')}>
          {STEPS.map((number) => (
            <button
              key={number}
              type="button"
              className="answer-step"
              aria-label={t('cruise.step', { step: number })}
              aria-current={number === step ? 'step' : undefined}
              disabled={!ready || !canGoBackTo(number, step)}
              onClick={() => goTo(number)}
            >
              {number}
            </button>
          ))}
        </nav>
        <span className="answer-hint" data-testid="answer-hint">
          {hint}
        </span>
        {pending && (
          <span className="answer-pending" data-testid="answer-pending">
            {t('cruise.pendingHere')}
          </span>
        )}
      </div>
      <h2 id="answer-step-question" className="answer-question">
        {t(`cruise.steps.${step}`)}
      </h2>
      <div className="answer-choices">
        {step === 1 &&
          TYPE_ORDER.map((type, index) => (
            <button
              key={type}
              type="button"
              className="button answer-choice"
              aria-pressed={saved ? draft.galaxy_type === type : undefined}
              disabled={!ready}
              onClick={() => chooseType(type)}
            >
              <kbd>{index + 1}</kbd> {t(`cruise.galaxyType.${type}`)}
            </button>
          ))}
        {step === 2 &&
          INTERACTION_ORDER.map((interaction, index) => (
            <button
              key={interaction}
              type="button"
              className="button answer-choice"
              aria-pressed={saved ? draft.interaction === interaction : undefined}
              disabled={!ready}
              onClick={() => chooseInteraction(interaction)}
            >
              <kbd>{index + 1}</kbd> {t(`cruise.interaction.${interaction}`)}
            </button>
          ))}
        {step === 3 && (
          <>
            {FEATURES.map((feature, index) => (
              <button
                key={feature}
                type="button"
                className="button answer-choice"
                aria-pressed={draft[feature]}
                disabled={!ready}
                onClick={() => toggle(feature)}
              >
                <kbd>{index + 1}</kbd> {t(`cruise.features.${feature}`)}
              </button>
            ))}
            <button
              type="button"
              className="button primary answer-choice"
              disabled={!ready}
              onClick={() => void submit()}
            >
              <kbd>Enter</kbd> {t('cruise.submit')}
            </button>
          </>
        )}
      </div>
    </section>
  );
}
