/** @type {import('next').NextConfig} */
const nextConfig = {
  // The dashboard reads the workspace with Node APIs; keep these packages out of the bundle.
  serverExternalPackages: ["@secretlint/core", "@secretlint/secretlint-rule-preset-recommend", "chokidar", "esbuild"],
  devIndicators: false,
  poweredByHeader: false,
};

export default nextConfig;
