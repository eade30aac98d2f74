"use client"; // Error boundaries must be Client Components (Next requirement).

import { RouteError, type RouteErrorProps } from "@/components/navigation/route-error";

export default function ErrorPage(props: RouteErrorProps) {
  return <RouteError {...props} />;
}
