import { mcpHandler, mcpNotAllowed } from "@/server/http/mcp";

export const dynamic = "force-dynamic";
export const POST = mcpHandler;
export const GET = mcpNotAllowed;
export const DELETE = mcpNotAllowed;
