import type { Metadata } from "next";
import type { ReactNode } from "react";

import { Providers } from "@/components/providers/providers";
import { LOGIN_PATH } from "@/lib/team/auth";

import "./globals.css";

// Inline icon: no public/ asset to ship, and no favicon 404 in the console.
const ICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1c1c1e"/><path d="M4 4h8M4 8h8M4 12h5" stroke="#fff3bf" stroke-width="1.6"/></svg>',
)}`;

export const metadata: Metadata = {
  title: { default: "Casefile", template: "%s · Casefile" },
  description: "Forensics of AI coding-agent session transcripts.",
  icons: { icon: ICON },
};

// NOTE: system font stacks (globals.css) instead of next/font: the dashboard runs offline.
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-dvh text-sm">
        <Providers loginPath={LOGIN_PATH}>{children}</Providers>
      </body>
    </html>
  );
}
