/** How a session ended (lib/forensics/status): its shape and rules, apart so each source's reader (lib/forensics/agent-session) uses them without importing the status module. */
import type { SessionStatus } from "@/lib/sources/common/schema";

/**
 * How the session ended, from its records: `recent` (still active), `reply` (an agent reply),
 * `interrupted` (the user stopped the last turn), `error` (an API error or failed tool result),
 * `user_exit` (the user typed `/exit` or `/quit` after the last activity), `no_reply` (the last
 * turn got no reply).
 */
export type StatusReason = "recent" | "reply" | "interrupted" | "error" | "user_exit" | "no_reply";

/** A last record whose own timestamp is within this many milliseconds of now counts as active (issue 9: 10 minutes). */
export const ACTIVE_WINDOW_MS = 10 * 60 * 1000;
/** Lines read from the end of the main transcript to find how it ended. */
export const STATUS_TAIL_LINES = 400;
/** `last_response_preview` length, in characters. */
export const RESPONSE_PREVIEW_CHARS = 300;

export type SessionEnding = { status: SessionStatus; reason: StatusReason; last_response_preview: string | null };
