// The cruise's navigation (application-spec §2, §4, §9): which target of the quest is current,
// the camera jumping to it (a new quest's first unanswered target, unless the screen opened on a
// view; N and the rudder to the next in the quest's order; goTo for the answer's 2 s jump to the
// nearest unanswered), whether the camera is zoomed on it so that the answer form shows, and the
// views the globe loads ahead while the form is up.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import type { Question } from '../../../../shared/api';
import type { Globe } from '../../../globe/Globe';
import { useCameraState, useJumping } from '../../components/globe/GlobeContext';
import { namesView } from '../../components/globe/viewLink';
import { useShortcut } from '../../components/shortcuts';
import { GLOBE_JUMP_SPEED } from '../../developerMode';
import { expectedNext, nextInOrder, zoomedOn } from './answerSteps';
import { firstUnanswered, targetView, type Quest } from '../../components/globe/targetViews';

const DEGREE = Math.PI / 180;
/** §9 jump durations (ms), scaled by the globe jump speed (0.1 in developer mode). */
export const JUMP_MS = {
  nextGalaxy: 1000 * GLOBE_JUMP_SPEED,
  nearestUnanswered: 2000 * GLOBE_JUMP_SPEED,
  courseChange: 5000 * GLOBE_JUMP_SPEED,
  areaCompletion: 10_000 * GLOBE_JUMP_SPEED,
};
export const NEXT_GALAXY_KEY = 'n';

export interface CruiseNavigation {
  currentId: number | null;
  current: Question | null;
  /** Makes `target` the current one and jumps the camera to it over `durationMs`. */
  goTo: (target: Question, durationMs: number) => void;
  /** The rudder (and N): the next target in the quest's order. */
  nextGalaxy: () => void;
  /** Whether the camera is zoomed on the current target, so that the answer form shows. */
  showForm: boolean;
  /** Whether the camera is on its way (the answer form waits for it). */
  sailing: boolean;
  /** Whether the main screen opened on a view (cleared once a quest has been shown). */
  openedOnView: React.RefObject<boolean>;
}

export function useCruiseNavigation({
  globe,
  quest,
  answered,
  completing,
  onScreenRef,
  jumpDurationRef,
}: {
  globe: Globe | null;
  quest: Quest | null;
  /** The quest's answered targets, those under way included (useAnswerSubmission). */
  answered: ReadonlySet<number>;
  /** Whether the quest's area is being completed: no jump, no form meanwhile. */
  completing: boolean;
  /** Kept up to date with the current target here, for the answer replies that drop retired ones. */
  onScreenRef: React.RefObject<number | null>;
  /** Jump duration for the next quest shown (course change 5 s by default). */
  jumpDurationRef: React.MutableRefObject<number>;
}): CruiseNavigation {
  const camera = useCameraState(100);
  // The chosen target, for the quest it was chosen in; a new quest starts at its first unanswered.
  const [chosen, setChosen] = useState<{ questId: number; objectId: number } | null>(null);
  const shownQuest = useRef<number | null>(null);
  // Whether the main screen opened on a view (a shared link, kept through the login, or a reload:
  // the main screen keeps its view in the address); the camera follows the address (useLinkedView).
  const { search } = useLocation();
  const openedOnView = useRef(namesView(search));

  const currentId =
    quest && chosen?.questId === quest.id
      ? chosen.objectId
      : quest
        ? (firstUnanswered(quest)?.object_id ?? null)
        : null;
  const current = quest?.questions.find((question) => question.object_id === currentId) ?? null;
  useEffect(() => {
    onScreenRef.current = currentId;
  }, [currentId, onScreenRef]);
  const questId = quest?.id;
  const setCurrentId = useCallback(
    (objectId: number) => {
      if (questId !== undefined) setChosen({ questId, objectId });
    },
    [questId],
  );

  const jumpTo = useCallback(
    (question: Question, durationMs: number) => {
      globe?.jumpTo(targetView(question), { duration: durationMs });
    },
    [globe],
  );
  const goTo = useCallback(
    (target: Question, durationMs: number) => {
      setCurrentId(target.object_id);
      jumpTo(target, durationMs);
    },
    [setCurrentId, jumpTo],
  );

  // A new quest (first load, course change, next area): the camera goes to its first target.
  useEffect(() => {
    if (!quest || !globe || shownQuest.current === quest.id) return;
    shownQuest.current = quest.id;
    const first = firstUnanswered(quest);
    if (!first) return;
    // A screen opened on a view stays on it; otherwise the camera goes to the quest's first target.
    if (!openedOnView.current) jumpTo(first, jumpDurationRef.current);
    openedOnView.current = false;
    jumpDurationRef.current = JUMP_MS.courseChange;
  }, [quest, globe, jumpTo, jumpDurationRef]);

  // The rudder: the next target in the quest's order, answered ones included, so that an answer
  // can be changed later by answering the same target again (the server replaces it).
  const nextGalaxy = useCallback(() => {
    const next = quest && !completing ? nextInOrder(quest.questions, currentId) : null;
    if (!next) return;
    goTo(next, JUMP_MS.nextGalaxy);
  }, [quest, currentId, completing, goTo]);

  useShortcut(NEXT_GALAXY_KEY, nextGalaxy);

  const sailing = useJumping();
  const view = camera ? { ra: camera.phi / DEGREE, dec: 90 - camera.theta / DEGREE, fovy: camera.fovy } : null;
  const showForm = !!current && !!view && !completing && zoomedOn(view, current);

  // While the form is up, the globe loads the views that submit and N jump to next, so that the
  // next galaxy is sharp when its jump ends (issue 31); none while there is no form.
  const ahead = useMemo(
    () => (showForm && quest && current ? expectedNext(quest.questions, answered, current).map(targetView) : []),
    [showForm, quest, answered, current],
  );
  // The globe ignores the same views given again (a re-render while the form stays up).
  useEffect(() => globe?.prefetch(ahead), [globe, ahead]);
  useEffect(() => () => globe?.prefetch([]), [globe]);

  return { currentId, current, goTo, nextGalaxy, showForm, sailing, openedOnView };
}
