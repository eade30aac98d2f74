import "server-only";

import { notFound } from "next/navigation";
import { cache } from "react";

import { isAppError } from "@/lib/errors";
import { getSynthesisStateTool } from "@/lib/synthesis/tools";
import { invokeToolForUi } from "@/lib/tools/registry";
import { getCoreContext } from "@/server/core";

/** The synthesis state of a project for the first paint of its synthesis page (the `get_synthesis_state` tool), or the not-found page. */
export const getSynthesisStateQuery = cache(async (projectKey: string) => {
  try {
    const { status: _status, ...state } = await invokeToolForUi(getCoreContext(), getSynthesisStateTool, { project_key: projectKey });
    return state;
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") notFound();
    throw error;
  }
});
