/** @type {import('next').NextConfig} */
const nextConfig = {
  // The dashboard reads the workspace with Node APIs; keep these packages out of the bundle.
  serverExternalPackages: ["proper-lockfile", "@secretlint/core", "@secretlint/secretlint-rule-preset-recommend"],
  devIndicators: false,
  poweredByHeader: false,
};

export default nextConfig;
