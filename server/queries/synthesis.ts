import "server-only";

import { notFound } from "next/navigation";
import { cache } from "react";

import { isAppError } from "@/lib/errors";
import { getSynthesisState } from "@/lib/synthesis/synthesis-state";
import { getCoreContext } from "@/server/core";

/** The synthesis state of a project for the first paint of its synthesis page, or the not-found page. */
export const getSynthesisStateQuery = cache(async (projectKey: string) => {
  try {
    return await getSynthesisState(getCoreContext(), projectKey);
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") notFound();
    throw error;
  }
});
