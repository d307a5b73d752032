// The answer form (application-spec §2, §4): step 1 galaxy type, step 2 interaction, step 3
// features when interacting, else the answer goes straight after step 2. Numbered step buttons go
// back to earlier steps only. Keyboard-first (UI.md): 1 / 2 / 3 (4) choose on each step, Enter
// submits step 3, Backspace goes back one step; the keys are printed on the buttons. The parent
// mounts a fresh form per target (its key), so the step starts at 1 with the saved answer.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Answer } from '../../../shared/api';
import type { GalaxyType, Interaction } from '../../../shared/enums';
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

/** Whether a key press belongs to the page's shortcuts (not typed into a field, no dialog open). */
export function isShortcut(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return false;
  const target = event.target as HTMLElement | null;
  if (target?.closest('input, textarea, select, [contenteditable="true"]')) return false;
  return !document.querySelector('.dialog-overlay');
}

export function AnswerForm({
  objectId,
  saved,
  pending,
  onSubmit,
}: {
  objectId: number;
  /** The saved answer of this target (reloaded, §4), or null when it has none. */
  saved: Draft | null;
  /** Whether this target's answer is waiting to be sent. */
  pending: boolean;
  /** Resolves false when the submission was cancelled (captain note: retry). */
  onSubmit: (answer: Answer) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>(1);
  const [draft, setDraft] = useState<Draft>(saved ?? EMPTY_DRAFT);
  const submitting = useRef(false);

  const submit = async (answer: Draft) => {
    if (submitting.current) return;
    submitting.current = true;
    try {
      if (!(await onSubmit(toAnswer(objectId, answer)))) setStep(1);
    } finally {
      submitting.current = false;
    }
  };

  const follow = (next: Next, answer: Draft) => {
    if ('submit' in next) void submit(answer);
    else setStep(next.step);
  };

  const chooseType = (galaxyType: GalaxyType) => {
    const next = { ...draft, galaxy_type: galaxyType };
    setDraft(next);
    follow(afterGalaxyType(galaxyType), next);
  };
  const chooseInteraction = (interaction: Interaction) => {
    const next = { ...draft, interaction };
    setDraft(next);
    follow(afterInteraction(interaction), next);
  };
  const toggle = (feature: Feature) => setDraft((old) => ({ ...old, [feature]: !old[feature] }));

  // The keys act on the step shown: the listener is renewed with every render.
  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      if (!isShortcut(event) || submitting.current) return;
      const digit = Number(event.key) - 1;
      let handled = true;
      if (event.key === 'Backspace' && step > 1) setStep((step - 1) as Step);
      else if (step === 1 && TYPE_ORDER[digit]) chooseType(TYPE_ORDER[digit]);
      else if (step === 2 && INTERACTION_ORDER[digit]) chooseInteraction(INTERACTION_ORDER[digit]);
      else if (step === 3 && FEATURES[digit]) toggle(FEATURES[digit]);
      // Enter on a focused control (a button, a link, a menu's summary) is that control's own.
      else if (
        step === 3 &&
        event.key === 'Enter' &&
        !(event.target as HTMLElement | null)?.closest('button, a, summary')
      )
        void submit(draft);
      else handled = false;
      if (handled) event.preventDefault();
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  });

  return (
    <section
      className="answer-form panel"
      aria-labelledby="answer-step-question"
      data-testid="answer-form"
      data-step={step}
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
              disabled={!canGoBackTo(number, step)}
              onClick={() => setStep(number)}
            >
              {number}
            </button>
          ))}
        </nav>
        <span className="answer-hint">{step > 1 ? t('cruise.backKey') : t('cruise.form')}</span>
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
                onClick={() => toggle(feature)}
              >
                <kbd>{index + 1}</kbd> {t(`cruise.features.${feature}`)}
              </button>
            ))}
            <button type="button" className="button primary answer-choice" onClick={() => void submit(draft)}>
              <kbd>Enter</kbd> {t('cruise.submit')}
            </button>
          </>
        )}
      </div>
    </section>
  );
}
