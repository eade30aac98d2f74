import { useMutation, useQueryClient } from "@tanstack/react-query";

import { unwrap } from "@/components/evidence/unwrap";
import type { OperatorItemInput, WriteWorkItemResult } from "@/lib/synthesis/schema";
import { createOperatorItemAction } from "@/server/actions/synthesis";

import { synthesisKeys } from "./queries";

/**
 * Records an operator's evidence gap or exclusion. A rejection (`{status:"invalid", errors}`)
 * is a result, not an error, so the form keeps its values and shows each error at its field;
 * the state is re-read after every attempt so the strip shows the write at once.
 */
export function useCreateOperatorItem(projectKey: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: OperatorItemInput): Promise<WriteWorkItemResult> => unwrap(await createOperatorItemAction(input)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: synthesisKeys.state(projectKey) }),
  });
}
