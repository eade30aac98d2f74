import { workspaceEventsHandler } from "@/server/http/events";

export const dynamic = "force-dynamic";
export const GET = workspaceEventsHandler;
