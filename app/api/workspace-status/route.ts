import { getWorkspaceStatusHandler } from "@/server/http/workspace-status";

export const dynamic = "force-dynamic";
export const GET = getWorkspaceStatusHandler;
