import type { Metadata } from "next";
import type { ReactNode } from "react";

import { Providers } from "@/components/providers/providers";

import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Casefile", template: "%s · Casefile" },
  description: "Forensics of AI coding-agent session transcripts.",
};

// NOTE: system font stacks (globals.css) instead of next/font: the dashboard runs offline.
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-dvh text-sm">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
