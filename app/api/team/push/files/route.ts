import { teamPushFilesHandler } from "@/server/http/team-push";

export const dynamic = "force-dynamic";
export const POST = teamPushFilesHandler;
