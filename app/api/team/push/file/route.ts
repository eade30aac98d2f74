import { teamPushFileHandler } from "@/server/http/team-push";

export const dynamic = "force-dynamic";
export const PUT = teamPushFileHandler;
