/**
 * `?quest=` ⇄ the followed quests: on mount the parameter (one uid or a comma list) selects
 * those quests (de-duplicated, cut to the limit with the notice); afterwards the parameter
 * follows the selection, so a reload keeps it. Other parameters are left alone.
 */
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { subscribeKey } from 'valtio/utils';
import { parseQuestParam } from '../../domain/quests';
import { quests, selectQuests } from '../../state/quests';

export const QUEST_PARAM = 'quest';

export function useQuestUrl(): void {
  const [params, setParams] = useSearchParams();
  const latest = useRef({ params, setParams });
  latest.current = { params, setParams };

  useEffect(() => {
    selectQuests(parseQuestParam(latest.current.params.get(QUEST_PARAM)));
    const write = () => {
      const { params: current, setParams: set } = latest.current;
      const value = quests.selected.join(',');
      if ((current.get(QUEST_PARAM) ?? '') === value) return;
      const next = new URLSearchParams(current);
      if (value) next.set(QUEST_PARAM, value);
      else next.delete(QUEST_PARAM);
      set(next, { replace: true, preventScrollReset: true });
    };
    write();
    return subscribeKey(quests, 'selected', write);
  }, []);
}
