/** Secrets found in text with secretlint's recommended rules. */
import { lintSource } from "@secretlint/core";

/*
 * Secret detection for work-item text (seed 001): secretlint's recommended preset, in-process and
 * offline (pinned to 11.x, the last line that supports Node 20). Differences from the preset: the
 * AWS rule also reports access key IDs, the comment-filter rule is off (text cannot switch the
 * scan off), and a rule of ours reports PEM private-key headers (a truncated key is still a leak).
 */

type CoreConfig = Parameters<typeof lintSource>[0]["options"]["config"];
type ConfigRule = CoreConfig["rules"][number];

const PEM_HEADER_ID = "PEM_PRIVATE_KEY_HEADER";

/** What the readable label of a finding is, per secretlint message id (and our own rule). */
const KIND_BY_MESSAGE_ID: Record<string, string> = {
  AWSAccountID: "an AWS account ID",
  AWSSecretAccessKey: "an AWS secret access key",
  AWSAccessKeyID: "an AWS access key ID",
  PrivateKeyP12: "a GCP service account private key",
  PrivateKeyJSON: "a GCP service account private key",
  PackageJSON_xOauthToken: "a GitHub token",
  Npmrc_authToken: "an npm auth token",
  NPM_ACCESS_TOKEN: "an npm access token",
  SLACK_TOKEN: "a Slack token",
  IncomingWebhook: "a Slack incoming webhook URL",
  BasicAuth: "a basic auth credential",
  OPENAI_TOKEN: "an OpenAI API key",
  ANTHROPIC_API_KEY: "an Anthropic API key",
  LINEAR_API_TOKEN: "a Linear API token",
  PrivateKey: "a private key",
  SENDGRID_KEY: "a SendGrid API key",
  SHOPIFY_KEY: "a Shopify API key",
  GITHUB_TOKEN: "a GitHub token",
  OPS_TOKEN: "a 1Password service account token",
  MongoDBConnection: "a MongoDB connection string with credentials",
  MySQLConnection: "a MySQL connection string with credentials",
  PostgreSQLConnection: "a PostgreSQL connection string with credentials",
  [PEM_HEADER_ID]: "a private key",
};

/** Our one supplementary rule: a PEM private-key header, even without its body. */
const pemHeaderRule = {
  messages: { [PEM_HEADER_ID]: { en: () => "found a private key header" } },
  meta: { id: "casefile-rule-private-key-header", recommended: true, type: "scanner", supportedContentTypes: ["text"] },
  create(context: { report(d: { message: unknown; range: readonly [number, number] }): void; createTranslator(m: unknown): (id: string) => unknown }) {
    const t = context.createTranslator(pemHeaderRule.messages);
    return {
      file(source: { content: string }) {
        for (const m of source.content.matchAll(/-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----/g)) {
          context.report({ message: t(PEM_HEADER_ID), range: [m.index, m.index + m[0].length] });
        }
      },
    };
  },
};

let configPromise: Promise<CoreConfig> | null = null;

/** Loads the preset lazily: its bundle is ~1 MB and only writes need it. */
function loadConfig(): Promise<CoreConfig> {
  configPromise ??= import("@secretlint/secretlint-rule-preset-recommend").then(({ creator }) => ({
    rules: [
      {
        id: "@secretlint/secretlint-rule-preset-recommend",
        rule: creator,
        rules: [
          { id: "@secretlint/secretlint-rule-aws", options: { enableIDScanRule: true } },
          { id: "@secretlint/secretlint-rule-filter-comments", disabled: true },
        ],
      } as ConfigRule,
      { id: pemHeaderRule.meta.id, rule: pemHeaderRule } as unknown as ConfigRule,
    ],
  }));
  return configPromise;
}

/**
 * The kinds of secret found in `text`, e.g. `["a GitHub token"]`, each once, in order of
 * appearance; [] when clean. Values never leave this function (secretlint masks them).
 */
export async function findSecretKinds(text: string): Promise<string[]> {
  const config = await loadConfig();
  const result = await lintSource({
    source: { content: text, filePath: "work-item.txt", ext: ".txt", contentType: "text" },
    options: { config, maskSecrets: true, noPhysicFilePath: true },
  });
  const found = [...result.messages].sort((a, b) => a.range[0] - b.range[0]);
  const kinds: string[] = [];
  for (const message of found) {
    const kind = KIND_BY_MESSAGE_ID[message.messageId] ?? `a secret (${message.ruleId.replace(/^@secretlint\/secretlint-rule-/, "")})`;
    if (!kinds.includes(kind)) kinds.push(kind);
  }
  return kinds;
}
