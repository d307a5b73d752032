// The cruise's answer submission (application-spec §4): the captain-note review, the answer queue
// (nothing lost), and what follows an answer: the remaining-count flash and the 2 s jump to the
// nearest unanswered target, or after the area the area-completed flash, a refresh and the level
// messages in the spec's order, after what each answer earned (useAnswerRewards); the completion
// dialogs of a course with no galaxy left ('no available galaxy' while areas the volunteer has not
// done remain, retired by the course's rule). An area left with nothing to answer once the
// course's rule retired its last targets completes.
import { useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Answer, CurrentQuestResponse, LevelSummary, Question } from '../../../../shared/api';
import { areasOfCourse, fetchLevel, fetchQuest, questQueryKey, serverInfoQuery } from '../../api/quests';
import { myRecordsQuery } from '../../api/records';
import { ignoreDismissal, MessageDialog, useDialogs } from '../../components/dialogs';
import { useFlash } from '../../components/Flash';
import { currentLocale } from '../../i18n';
import type { AnswerQueue, PendingAnswer } from './answerQueue';
import { afterSubmit } from './answerSteps';
import { CaptainNoteDialog } from './CaptainNoteDialog';
import { CompletionDialog } from './CourseComplete';
import { cabinRank, levelMessages } from './levelMessages';
import { courseCompletion, exhaustedMessage } from './rewardMessages';
import type { Quest } from '../../components/globe/targetViews';
import { useAnswerRewards } from './useAnswerRewards';
import { JUMP_MS, type CruiseNavigation } from './useCruiseNavigation';

/** An answer submitted on this page whose write to the queue's store is under way. */
interface Storing {
  questId: number;
  answer: Answer;
}

/**
 * The saved answers of a quest: the server's, replaced by the queue's newer ones, and by those
 * submitted whose write to the store is still under way (newest last), so that an answer counts
 * from its submit on: the next submit's nearest unanswered galaxy, the remaining count and the
 * area's end never take it for unanswered, however fast the next galaxy is answered.
 */
function answersOf(quest: Quest, pending: readonly PendingAnswer[], storing: readonly Storing[]): Answer[] {
  const byObject = new Map(quest.answers.map((answer) => [answer.object_id, answer]));
  for (const entry of [...pending, ...storing])
    if (entry.questId === quest.id) byObject.set(entry.answer.object_id, entry.answer);
  return [...byObject.values()];
}

export function useAnswerSubmission({
  course,
  data,
  quest,
  levels,
  totalAreas,
  queue,
  pending,
  onScreenRef,
  jumpDurationRef,
}: {
  course: string;
  /** The course's current quest, or that it has no galaxy left. */
  data: CurrentQuestResponse | undefined;
  quest: Quest | null;
  levels: UseQueryResult<LevelSummary[]>;
  /** The course's areas (GET /api/server_info), once they have come. */
  totalAreas: number | undefined;
  queue: AnswerQueue;
  pending: readonly PendingAnswer[];
  /** The target on screen (useCruiseNavigation keeps it), which retirement never drops. */
  onScreenRef: React.RefObject<number | null>;
  /** Jump duration for the next quest shown: the area completion's 10 s after an area. */
  jumpDurationRef: React.MutableRefObject<number>;
}) {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const flash = useFlash();
  const queryClient = useQueryClient();
  const [completing, setCompleting] = useState(false);
  const [storing, setStoring] = useState<readonly Storing[]>([]);
  const answers = useMemo(() => (quest ? answersOf(quest, pending, storing) : []), [quest, pending, storing]);
  const answered = useMemo(() => new Set(answers.map((answer) => answer.object_id)), [answers]);
  const pendingIds = useMemo(
    () => new Set(pending.filter((entry) => entry.questId === quest?.id).map((entry) => entry.answer.object_id)),
    [pending, quest?.id],
  );
  // Quests that lost targets to retirement, and the quest whose area is being completed.
  const pruned = useRef(new Set<number>());
  const completingQuest = useRef<number | null>(null);

  // No galaxy left in the course: 'no available galaxy', or the course's completion (not again
  // when the volunteer has just completed it here: the area's messages said so).
  const completedHere = useRef<string | null>(null);
  // Primitive dependencies: a refetch of the same exhausted course does not say it again.
  const exhaustedCourse = data?.no_more_available_objects ? data.course_id : null;
  const exhaustedDone = data?.no_more_available_objects ? data.done_area_ids.length : 0;
  useEffect(() => {
    // Said once the course's levels tell how many areas it has.
    if (!exhaustedCourse || totalAreas === undefined) return;
    if (completedHere.current === exhaustedCourse) {
      completedHere.current = null;
      return;
    }
    const message = exhaustedMessage(exhaustedCourse, exhaustedDone, totalAreas);
    // Shown on opening an exhausted course, as the login's notifications are: one after another.
    void dialogs.open(<CompletionDialog message={message} />, { queued: true }).catch(ignoreDismissal);
  }, [exhaustedCourse, exhaustedDone, totalAreas, dialogs]);

  // The area's messages wait for the rewards' (rewardsShown).
  const rewardsShown = useAnswerRewards({ course, onScreenRef, pruned });

  const completeArea = async (finished: Quest) => {
    if (completingQuest.current === finished.id) return;
    completingQuest.current = finished.id;
    setCompleting(true);
    try {
      if (queue.pending().length > 0) flash(t('cruise.savingArea'));
      await queue.whenIdle();
      await rewardsShown.current;
      flash(t('cruise.areaCompleted'));
      const [fresh, level, serverInfo] = await Promise.all([
        fetchQuest(course),
        fetchLevel(finished.level_id),
        // Read again (staleTime 0), into the query the screen's course total comes from.
        queryClient.fetchQuery({ ...serverInfoQuery, staleTime: 0 }),
      ]);
      const totalAreas = areasOfCourse(serverInfo, course);
      const levelsNow = (await levels.refetch()).data ?? [];
      const stageName = (levelId: number | null) =>
        levelsNow.find((candidate) => candidate.id === levelId)?.name[currentLocale()] ?? '';
      const after = fresh.no_more_available_objects ? null : fresh;
      const messages = levelMessages({
        course,
        before: { level_id: finished.level_id, type: finished.type, done_area_ids: finished.done_area_ids },
        after,
        doneAfter: fresh.done_area_ids,
        levelAreaIds: level.areas.map((area) => area.id),
        totalAreas,
      });
      if (messages.includes('stamp')) void queryClient.invalidateQueries({ queryKey: myRecordsQuery.queryKey });
      if (!after) completedHere.current = course;
      for (const message of messages) {
        if (message === 'courseCompleted') {
          // Areas left undone were retired by the course's rule: no galaxy is left for now.
          const completion =
            fresh.done_area_ids.length < totalAreas ? ('noAvailable' as const) : courseCompletion(course);
          await dialogs.open(<CompletionDialog message={completion} />).catch(ignoreDismissal);
          continue;
        }
        const stage = message === 'stamp' ? level.name[currentLocale()] : stageName(after?.level_id ?? null);
        await dialogs
          .open(
            <MessageDialog
              title={t(`cruise.levels.${message}.title`)}
              message={t(`cruise.levels.${message}.message`, {
                stage,
                rank: String(cabinRank(fresh.done_area_ids.length, totalAreas)),
              })}
            />,
          )
          .catch(ignoreDismissal);
      }
      jumpDurationRef.current = JUMP_MS.areaCompletion;
      queryClient.setQueryData(questQueryKey(course), fresh);
    } finally {
      setCompleting(false);
    }
  };

  // A quest whose last unanswered targets were retired is done: its area completes as after an answer.
  useEffect(() => {
    if (!quest || completing || !pruned.current.has(quest.id) || completingQuest.current === quest.id) return;
    if (quest.questions.some((question) => !answered.has(question.object_id))) return;
    void completeArea(quest);
  });

  /** Submits `answer` to `question`; `goTo` is the navigation's jump (to the next target, or back). */
  const submit = async (question: Question, answer: Answer, goTo: CruiseNavigation['goTo']): Promise<boolean> => {
    if (!quest) return false;
    if (question.captain_note) {
      const next = await dialogs
        .open<boolean>(<CaptainNoteDialog note={question.captain_note} answer={answer} />, { dismissable: false })
        .catch(() => false);
      if (!next) return false;
    }
    // The jump to the next target starts with the answer's write to the store, not after it (a
    // slow laptop's IndexedDB takes 100 ms and more): the queue's guarantee is that write, which
    // runs the same either way. Should it fail, the camera comes back, the form up for a retry.
    const stored = queue.submit(quest.id, answer);
    // Answered from now on, in the same render as the move to the next galaxy (whose form may be
    // answered before the write ends).
    const entry: Storing = { questId: quest.id, answer };
    setStoring((list) => [...list, entry]);
    // The view prefetched while the form was up (expectedNext): the same choice.
    const next = afterSubmit(quest.questions, answered, question);
    if (next) goTo(next, JUMP_MS.nearestUnanswered);
    try {
      await stored;
    } catch (error) {
      if (next) goTo(question, JUMP_MS.nextGalaxy);
      throw error;
    } finally {
      // In the queue's pending list now (or not stored at all).
      setStoring((list) => list.filter((candidate) => candidate !== entry));
    }
    // The quest as the volunteer now sees it: this answer replaces any earlier one.
    queryClient.setQueryData<CurrentQuestResponse>(questQueryKey(course), (old) =>
      old && !old.no_more_available_objects && old.id === quest.id
        ? { ...old, answers: [...old.answers.filter((saved) => saved.object_id !== answer.object_id), answer] }
        : old,
    );
    const nowAnswered = new Set(answered).add(answer.object_id);
    const remaining = quest.questions.filter((candidate) => !nowAnswered.has(candidate.object_id)).length;
    if (remaining > 0) flash(t('cruise.remaining', { count: remaining }));
    else void completeArea({ ...quest, answers: [...quest.answers, answer] });
    return true;
  };

  return { answers, answered, pendingIds, completing, submit };
}
