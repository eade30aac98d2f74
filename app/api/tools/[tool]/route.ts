import { callToolHandler } from "@/server/http/tools";

export const dynamic = "force-dynamic";
export const POST = callToolHandler;
