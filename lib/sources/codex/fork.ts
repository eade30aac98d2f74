/** One turn of a possible fork: its trigger line and fingerprint (contract §1.8 step 5). */
export type CodexForkTurn = { startLine: number; fingerprint: string };

/**
 * What fork inheritance needs from one Codex session: its parent (`forked_from_id`, or null)
 * and the fingerprint of every turn, off-window turns included, in line order.
 */
export type CodexForkHistory = { parentId: string | null; turns: readonly CodexForkTurn[] };

/**
 * The trigger lines of a Codex fork's leading turns that are inherited from its ancestors
 * (contract §1.8 step 5). Walks `forked_from_id` through `selected`, collecting every ancestor
 * turn fingerprint; a missing ancestor ends the walk (a known parent can prove inheritance even
 * when its own parent is missing), while a cycle or an ancestor without a fork history
 * (ambiguous metadata) proves nothing. The fork's turns are then taken from the start for as
 * long as their fingerprints are in that set; the first distinct turn stops it.
 * @param sessionId the fork's own `source_session_id`.
 * @param history the fork's history, or null when it does not qualify (then nothing is inherited).
 * @param selected every selected Codex session by `source_session_id`: its history, or null when
 *   it does not qualify.
 * @returns trigger lines to drop (possibly empty). Pure.
 */
export function inheritedTurnStarts(
  sessionId: string,
  history: CodexForkHistory | null,
  selected: ReadonlyMap<string, CodexForkHistory | null>,
): Set<number> {
  const inherited = new Set<number>();
  if (history === null || history.parentId === null) return inherited;
  const visited = new Set([sessionId]);
  const ancestorFingerprints = new Set<string>();
  for (let parentId: string | null = history.parentId; parentId !== null; ) {
    if (!selected.has(parentId)) break;
    const parent: CodexForkHistory | null = selected.get(parentId) ?? null;
    if (visited.has(parentId) || parent === null) return inherited;
    visited.add(parentId);
    for (const turn of parent.turns) ancestorFingerprints.add(turn.fingerprint);
    parentId = parent.parentId;
  }
  for (const turn of history.turns) {
    if (!ancestorFingerprints.has(turn.fingerprint)) break;
    inherited.add(turn.startLine);
  }
  return inherited;
}
