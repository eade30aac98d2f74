import { sessionTurnsHandler } from "@/server/http/sessions";

export const dynamic = "force-dynamic";
export const GET = sessionTurnsHandler;
