import "server-only";

import { AppError } from "@/lib/errors";
import { callTool, isToolSuccess, serializeToolResult } from "@/lib/tools/registry";
import { getCoreContext } from "@/server/core";
import { errorResponse, jsonText } from "@/server/http/respond";

/**
 * `POST /api/tools/<tool_name>`: the JSON body is the tool input; 200 with the result on
 * success, 400 with the same body when the status is `invalid` (issue 2, "Doors").
 */
export async function callToolHandler(request: Request, { params }: { params: Promise<{ tool: string }> }): Promise<Response> {
  try {
    const { tool } = await params;
    let input: unknown;
    try {
      input = await request.json();
    } catch {
      throw new AppError("invalid_input", "request body is not valid JSON", { hint: "send the tool input as a JSON object" });
    }
    const result = await callTool(getCoreContext(), tool, input, { door: "http" });
    return jsonText(serializeToolResult(result), isToolSuccess(result) ? 200 : 400);
  } catch (error) {
    return errorResponse(error);
  }
}
