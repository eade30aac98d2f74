/**
 * The one descriptor each transcript source answers (issue 38): what every layer above
 * `lib/sources` needs to know of a source, so none of them names one. Claude Code and Codex,
 * whose workspace files are their own JSONL transcripts read line by line, carry a
 * {@link TranscriptFormat}; the agents behind the source contract carry their
 * {@link AgentSource}, whose `parseLines` replays the whole file. Registry: lib/sources/formats.ts
 * (its JSONL per-line half, which workers load: lib/sources/transcript-formats.ts; the line
 * headlines: lib/sources/headlines.ts).
 */
import type { LineWindows } from "@/lib/jsonl/line-windows";
import type { CodexForkHistory } from "@/lib/sources/codex/fork";
import type { AgentSource } from "@/lib/sources/common/agent-source";
import type { CompactBody } from "@/lib/sources/common/compact-fields";
import type { FileEdit } from "@/lib/sources/common/compact-record";
import type { HeadlineRecord, ToolCallNames } from "@/lib/sources/common/headline-parts";
import type { JsonObject } from "@/lib/sources/common/json-object";
import type { RecordFacts } from "@/lib/sources/common/record-facts";
import type { TranscriptSource } from "@/lib/sources/common/source-names";
import type { PushedFiles } from "@/lib/sources/common/pushed-files";
import type { ObjectPlan } from "@/lib/sources/common/skim";
import type { UsageRules } from "@/lib/sources/common/usage-rules";
import type { LineExtras } from "@/lib/sources/common/viewer-detail";

/** What a session's first lines tell of it (issue 12 item 5), null until found. */
export type HeadFacts = { model: string | null; client_version: string | null; cwd: string | null; git_branch: string | null };

/** One tool call of a transcript: its physical line, tool name and main argument (file path, command, …). */
export type TranscriptToolUse = { line: number; name: string; arg: string };

/** Looks up a parsed neighbouring line by its 1-based number (null when unknown or unparsable). */
export type NeighbourLine = (line: number) => JsonObject | null;

/**
 * One file's lines read in order for the forensics scan's map (issue 9; lib/forensics/scan-map):
 * each non-blank line is skimmed by {@link plan} when it names one (lib/sources/common/skim), and
 * parsed whole when it does not, when the skim cannot settle the line, or when {@link skimmed}
 * says the skim left out what the facts need.
 */
export type LineFactsReader = {
  /** The skim plan of the next line, or null to parse it whole. */
  plan(): ObjectPlan | null;
  /** Facts of a skimmed line (`timestampMs` parsed by the skim), or null to parse the line whole. */
  skimmed(record: JsonObject, timestampMs: number | null): RecordFacts | null;
  /** Facts of a line parsed whole, read in file order (the file's first object may decide how the rest reads). */
  parsed(record: JsonObject): RecordFacts;
};

/**
 * How a source whose workspace file is its own JSONL transcript reads, one physical line at a
 * time (contract §1.6): each function takes one parsed line (`record`) as the file holds it.
 */
export type TranscriptFormat = {
  /** The source's name, as index rows write it. */
  name: TranscriptSource;
  /** The compact record's source-derived fields of one parsed line (contract §4.4). */
  compact(record: JsonObject): CompactBody;
  /**
   * The line `record` (on `line`) repeats, when the source logs one message twice (Codex: an
   * `event_msg` and its response item within 100 ms, contract §1.7 / §4.3 step 1); null when not
   * an echo. Absent when the source never echoes.
   */
  echoOf?(line: number, record: JsonObject, neighbour: NeighbourLine): number | null;
  /** What the viewer shows beside a line (issue 12). */
  viewer: {
    /** Group, slash command and detail of one parsed line. */
    extras(record: JsonObject): LineExtras;
    /**
     * Whether a line carries a session's bulk (a reply, a tool result, a response item): in
     * compact mode it is a conversation line whose timestamp is found by a search, not a parse.
     */
    bulkLine(record: Pick<HeadlineRecord, "record_type" | "tool_results">): boolean;
    /** Where a bulk line's own `"timestamp"` is: written before the message (`head`) or after it (`tail`). */
    timestampAt: "head" | "tail";
  };
  /** What the forensics scan reads of each line (issue 9). */
  facts: {
    /** Facts of one parsed line read on its own (a status probe reading the last lines backwards). */
    of(record: JsonObject): RecordFacts;
    /** A reader of one file's lines in order; `skim: false` parses every line (the reference the skim is tested against). */
    reader(options?: { skim?: boolean }): LineFactsReader;
    /**
     * Lines hold no state between them: a big file is mapped in line ranges on several threads
     * (Claude Code). False: one range from the first line (a Codex legacy header decides how the rest reads).
     */
    independentLines: boolean;
    /**
     * A human message is logged twice, as an event and as a response item: the scan keeps the
     * events' when the file has any, else the response items' (Codex).
     */
    promptsLoggedTwice: boolean;
  };
  /** Fills what `facts` still lacks (null) from one parsed line near the file's start: the model, the client's version, the working directory, the git branch. */
  headFacts(record: JsonObject, facts: HeadFacts): void;
  /** How its tokens are counted (issue 28; lib/usage prices and totals the requests). */
  usage: UsageRules;
  /**
   * A record a user's local command left after the conversation (issue 28: `/exit`, `/export`,
   * their output, injected meta text): the command's name (`exit`), `""` for its other records,
   * null for a record of the conversation. Absent when the source records no local commands.
   */
  localCommand?(record: JsonObject): string | null;
  /**
   * The session's own title when no prompt names its request (Claude Code: its `summary` records,
   * contract §2.7), read from the file's lines; null when it has none. Absent when the source records no title.
   */
  sessionTitle?(windows: LineWindows): Promise<string | null>;
  /**
   * Which of seed 003's session analyses (lib/analysis) reads the file: `tool-reads` when each
   * file read is a tool call with its result, big results persisted under `tool-results/`
   * (reads, persistence, markers and a `date` Workscope ID are analysed: Claude Code);
   * `token-counts` when tokens come as cumulative `token_count` events and files are read through
   * shell commands (tokens and resets only; `readsUnavailable` says why reads are not shown, never as 0: Codex).
   */
  analysis: { scan: "tool-reads" } | { scan: "token-counts"; readsUnavailable: string };
  /** A substring every line that calls a tool holds (`"tool_use"`, `"call_id"`): lines without it are not read for calls. */
  callMarker: string;
};

/**
 * What the viewer and the Timeline say a JSONL line did, in one line (issue 29), by source in
 * lib/sources/headlines: apart from the descriptor, so the per-line readers, the registry and
 * their workers never load the diff library its edit counts need.
 */
export type LineHeadlines = {
  /**
   * Every line is parsed for its headline, plain messages included (Codex: a message's record
   * type does not say whether it is one); false: a `user` / `assistant` line with no tool use
   * or result says it all without a parse (issue 13: bulk lines stay unparsed).
   */
  parsesMessages: boolean;
  /** The line's headline (`raw` parsed, null when unparsable or too big; `text` the raw line); null when the compact record says it all. `calls` links results to calls. */
  of(raw: JsonObject | null, text: string, record: HeadlineRecord, calls: ToolCallNames): string | null;
  /** The file edits a parsed line's calls ask for, for a diff; [] for a source whose calls carry none. */
  edits(raw: JsonObject): FileEdit[];
};

/** One transcript source, as every layer above `lib/sources` reaches it (`N`: its name, when known). */
export type SourceFormat<N extends TranscriptSource = TranscriptSource> = {
  /** As index rows and `agent:` filters write it. */
  name: N;
  /** For people: `Claude Code`, `Codex`, `Gemini CLI`, … */
  label: string;
  /** Where the source writes by default (absolute, existing or not), given the user's home and environment; [] when it has none (Aider). */
  defaultRoots(home: string, env: NodeJS.ProcessEnv): string[];
  /** The kind `casefile sources` (sources.json) and a team push name its roots by: `claude` for Claude Code, else its name. */
  rootKind: string;
  /** Which files under one of its roots a team push sends (issue 39; never credentials beside the sessions). */
  pushed: PushedFiles;
  /** Its own JSONL transcript, read line by line (Claude Code, Codex); null for an agent behind the contract. */
  transcript: TranscriptFormat | null;
  /** The agent behind the source contract, whose workspace file is replayed whole (lib/sources/agent-transcripts); null for a native transcript. */
  agent: AgentSource | null;
  /**
   * The session's Workscope ID (seed 003 Q2: a chat export pairs with it) read from its source
   * file (`sourcePath` as prepare found it); null when absent.
   * @throws the fs error when the file cannot be read.
   */
  workscopeId(sourcePath: string): Promise<string | null>;
  /**
   * The fingerprints of a transcript's turns that tell which of them a fork inherited (contract
   * §1.8 step 5: Codex forks), read only for forks and their ancestors. Absent when the source does not fork sessions.
   */
  forkHistory?(filePath: string): Promise<CodexForkHistory | null>;
  /**
   * Every tool call of a transcript in file order, which a chat export's tool lines link to
   * (seed 003 Q2). Absent when the source has no chat exports.
   */
  toolUses?(filePath: string): Promise<TranscriptToolUse[]>;
};
