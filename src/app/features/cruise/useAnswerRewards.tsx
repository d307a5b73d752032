// What each answer earned, once the server has it (application-spec §4): the medal message after
// a new record, the puzzle-piece message (and the puzzle-completed one) at a multiple of the
// objects per piece, shown one after another; and the targets that the course's rule retired
// (the answer replies name them, docs/science.md), which leave the quest on screen at once
// unless it is the one on screen.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { CurrentQuestResponse } from '../../../../shared/api';
import { questQueryKey } from '../../api/quests';
import { myRecordsQuery } from '../../api/records';
import { ignoreDismissal, MessageDialog, useDialogs } from '../../components/dialogs';
import { OBJECTS_PER_PIECE } from '../../developerMode';
import { currentLocale } from '../../i18n';
import { completesJigsaw, piecesOf } from '../souvenirs/jigsaw';
import { answerRewards } from './rewardMessages';
import { onAnswerSent } from './useAnswerQueue';

/**
 * Listens to the answers the server takes; returns the promise of the reward messages shown so
 * far, which the area's messages wait for. A quest that lost targets is added to `pruned`.
 */
export function useAnswerRewards({
  course,
  onScreenRef,
  pruned,
}: {
  course: string;
  /** The target on screen, never dropped (its answer is still taken). */
  onScreenRef: React.RefObject<number | null>;
  /** Quests that lost targets to retirement. */
  pruned: React.RefObject<Set<number>>;
}): React.RefObject<Promise<void>> {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const queryClient = useQueryClient();
  const rewardsShown = useRef<Promise<void>>(Promise.resolve());
  const lastCounts = useRef(new Map<number, number>());
  useEffect(
    () =>
      onAnswerSent((entry, response) => {
        const messages = answerRewards({
          response,
          previousCount: lastCounts.current.get(entry.questId) ?? null,
          objectsPerPiece: OBJECTS_PER_PIECE,
          now: new Date(),
        });
        lastCounts.current.set(entry.questId, response.answers_count);
        void queryClient.invalidateQueries({ queryKey: myRecordsQuery.queryKey });
        // Targets the course's rule retired since the quest was made leave it, but those answered
        // here and the one on screen (its answer is still taken).
        const retired = new Set(response.retired_object_ids ?? []);
        if (retired.size > 0)
          queryClient.setQueryData<CurrentQuestResponse>(questQueryKey(course), (old) => {
            if (!old || old.no_more_available_objects || old.id !== entry.questId) return old;
            const kept = new Set([...old.answers.map((answer) => answer.object_id), entry.answer.object_id]);
            const questions = old.questions.filter(
              (question) =>
                !retired.has(question.object_id) ||
                kept.has(question.object_id) ||
                question.object_id === onScreenRef.current,
            );
            if (questions.length === old.questions.length) return old;
            pruned.current.add(old.id);
            return { ...old, questions };
          });
        if (messages.length === 0) return;
        rewardsShown.current = rewardsShown.current.then(async () => {
          for (const message of messages) {
            const locale = currentLocale();
            const dialog =
              message.kind === 'medal' ? (
                <MessageDialog
                  title={t('cruise.rewards.medal.title', { campaign: message.campaign.name[locale] })}
                  message={t('cruise.rewards.medal.message', { message: message.medal.messages[locale] })}
                />
              ) : (
                <MessageDialog
                  title={t(`cruise.rewards.${message.kind}.title`)}
                  message={t(`cruise.rewards.${message.kind}.message`, { count: response.answers_count })}
                />
              );
            await dialogs.open(dialog).catch(ignoreDismissal);
            // Whether this piece completed a jigsaw needs every course's count: asked after the
            // piece's own message, so that the message shows as soon as the answer is sent.
            if (message.kind === 'piece') {
              const records = await queryClient.fetchQuery({ ...myRecordsQuery, staleTime: 0 }).catch(() => null);
              if (records && completesJigsaw(piecesOf(records)))
                await dialogs
                  .open(
                    <MessageDialog
                      title={t('cruise.rewards.puzzleCompleted.title')}
                      message={t('cruise.rewards.puzzleCompleted.message')}
                    />,
                  )
                  .catch(ignoreDismissal);
            }
          }
        });
      }),
    [dialogs, queryClient, t, course, onScreenRef, pruned],
  );
  return rewardsShown;
}
