/** The two phantom-read markers the model sees in place of a tool result (seed 003 Q3–Q6). Kept free of imports: the analysis workers load it. */
export const PHANTOM_MARKERS = ["<persisted-output>", "[Old tool result content cleared]"] as const;
export type PhantomMarker = (typeof PHANTOM_MARKERS)[number];
