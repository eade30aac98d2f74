import path from "node:path";
import { ensureRealShapedSessions, prepareRealShaped, REAL_SHAPED_DIR } from "./real-shaped";
const s = await ensureRealShapedSessions();
const which = process.argv[2] ?? "claude";
const only = which === "claude" ? { ...s, codexRoot: path.join(REAL_SHAPED_DIR, "none") } : { ...s, claudeRoot: path.join(REAL_SHAPED_DIR, "none") };
const ms = await prepareRealShaped(only, path.join(REAL_SHAPED_DIR, "prof-ws"));
console.log(which, "prepare", ms.toFixed(0), "ms");
